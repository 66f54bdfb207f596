// Kairan web interface: small enhancements only. Every page works without this script; it adds
// delete confirmations, a check of the files chosen for a comment, and keeps the edit lease of an
// open edit form alive. Times are printed by the server in the reader's language and time zone.
(function () {
  "use strict";

  // Destructive forms ask first.
  document.querySelectorAll("form[data-confirm]").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (!window.confirm(form.getAttribute("data-confirm"))) event.preventDefault();
    });
  });

  // Comment files: at most N, each and all within the limits, said before a long upload fails.
  document.querySelectorAll("form[data-max-files]").forEach(function (form) {
    var input = form.querySelector("input[type=file]");
    var message = form.querySelector(".file-error");
    if (!input || !message) return;
    var maxFiles = Number(form.getAttribute("data-max-files"));
    var maxFile = Number(form.getAttribute("data-max-file-bytes"));
    var maxTotal = Number(form.getAttribute("data-max-total-bytes"));
    function problem() {
      var files = Array.prototype.slice.call(input.files || []);
      if (files.length > maxFiles) return form.getAttribute("data-too-many");
      var total = 0;
      for (var i = 0; i < files.length; i++) {
        if (files[i].size > maxFile) return files[i].name + ": > 25 MB";
        total += files[i].size;
      }
      if (total > maxTotal) return "> 50 MB";
      return "";
    }
    function show() {
      var text = problem();
      message.textContent = text;
      message.hidden = text === "";
      return text === "";
    }
    input.addEventListener("change", show);
    form.addEventListener("submit", function (event) {
      if (!show()) {
        event.preventDefault();
        input.focus();
      }
    });
  });

  // The edit lease runs 10 minutes; renew it while the form stays open.
  var note = document.querySelector("[data-lease-action]");
  var editForm = document.getElementById("topic-form");
  if (note && editForm) {
    var csrf = editForm.querySelector("input[name=_csrf]");
    window.setInterval(
      function () {
        if (!csrf) return;
        var body = new URLSearchParams();
        body.set("_csrf", csrf.value);
        fetch(note.getAttribute("data-lease-action"), { method: "POST", body: body, credentials: "same-origin" }).catch(
          function () {},
        );
      },
      4 * 60 * 1000,
    );
  }
})();
