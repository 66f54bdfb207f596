// Passkeys (WebAuthn) on the pages that offer them: adding one (account, two-factor page), signing
// in with one, and one as the second step. Each is a form marked `data-passkey="create"` or
// `"get"` with the server's options (JSON) in `data-passkey-options`; it stays hidden without this
// script or without WebAuthn, and every page works without it. Pressing its button asks the
// browser, puts the answer (JSON) in the form's `response` field and sends the form: the server
// checks everything (services/two-factor/passkeys.ts). The refusal box is a div, not a p: the
// forms' `.stack p` rule would show it despite `hidden`.
(function () {
  "use strict";

  if (!window.PublicKeyCredential || !navigator.credentials) return;

  function toBytes(base64url) {
    var base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
    while (base64.length % 4) base64 += "=";
    var text = atob(base64);
    var bytes = new Uint8Array(text.length);
    for (var i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    return bytes.buffer;
  }

  function toBase64url(buffer) {
    var bytes = new Uint8Array(buffer);
    var text = "";
    for (var i = 0; i < bytes.length; i++) text += String.fromCharCode(bytes[i]);
    return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function withCredentialIds(list) {
    return (list || []).map(function (item) {
      return { type: item.type, id: toBytes(item.id), transports: item.transports };
    });
  }

  function creationOptions(json) {
    var options = Object.assign({}, json, {
      challenge: toBytes(json.challenge),
      user: Object.assign({}, json.user, { id: toBytes(json.user.id) }),
      excludeCredentials: withCredentialIds(json.excludeCredentials),
    });
    return { publicKey: options };
  }

  function requestOptions(json) {
    var options = Object.assign({}, json, {
      challenge: toBytes(json.challenge),
      allowCredentials: withCredentialIds(json.allowCredentials),
    });
    return { publicKey: options };
  }

  function answerOf(credential) {
    var response = credential.response;
    var json = {
      id: credential.id,
      rawId: toBase64url(credential.rawId),
      type: credential.type,
      authenticatorAttachment: credential.authenticatorAttachment || undefined,
      clientExtensionResults: credential.getClientExtensionResults ? credential.getClientExtensionResults() : {},
      response: { clientDataJSON: toBase64url(response.clientDataJSON) },
    };
    if (response.attestationObject) {
      json.response.attestationObject = toBase64url(response.attestationObject);
      json.response.transports = response.getTransports ? response.getTransports() : [];
    } else {
      json.response.authenticatorData = toBase64url(response.authenticatorData);
      json.response.signature = toBase64url(response.signature);
      if (response.userHandle) json.response.userHandle = toBase64url(response.userHandle);
    }
    return JSON.stringify(json);
  }

  document.querySelectorAll("form[data-passkey]").forEach(function (form) {
    var field = form.querySelector("input[name=response]");
    var message = form.querySelector("[data-passkey-error]");
    if (!field) return;
    form.hidden = false;
    var busy = false;
    form.addEventListener("submit", function (event) {
      if (field.value !== "") return;
      event.preventDefault();
      if (busy || (form.reportValidity && !form.reportValidity())) return;
      busy = true;
      if (message) message.hidden = true;
      var json = JSON.parse(form.getAttribute("data-passkey-options"));
      var asked =
        form.getAttribute("data-passkey") === "create"
          ? navigator.credentials.create(creationOptions(json))
          : navigator.credentials.get(requestOptions(json));
      asked
        .then(function (credential) {
          if (!credential) throw new Error("no credential");
          field.value = answerOf(credential);
          form.submit();
        })
        .catch(function () {
          busy = false;
          if (message) message.hidden = false;
        });
    });
  });
})();
