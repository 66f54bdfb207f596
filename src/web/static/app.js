// Kairan web interface: small enhancements only. Every page works without this script; it adds
// delete confirmations, a check of the files chosen for a comment, drag and drop and progress for
// shared-file uploads, keeps the edit lease of an open edit form while the person types, and
// suggests members as one types `@`. Times are printed by the server in the reader's language and
// time zone.
(function () {
  "use strict";

  // One live stream (/api/stream/V2) per page, shared by a chat view and the header's count.
  var sharedStream = null;
  function liveStream() {
    if (!sharedStream) sharedStream = new EventSource("/api/stream/V2");
    return sharedStream;
  }

  // The sign-in and sign-up forms tell the server the browser's time zone (an account without one
  // takes it; one in another zone is offered it).
  var browserZone = "";
  try {
    browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch {
    browserZone = "";
  }
  document.querySelectorAll("input[data-browser-zone]").forEach(function (field) {
    field.value = browserZone;
  });
  // Single sign-on leaves for the provider by a link: the zone rides along as ?timeZone=.
  document.querySelectorAll("a[data-browser-zone-link]").forEach(function (link) {
    if (browserZone)
      link.href += (link.href.indexOf("?") < 0 ? "?" : "&") + "timeZone=" + encodeURIComponent(browserZone);
  });

  // The header's menu below 600 px: a button opens and closes it, Escape closes it and goes back
  // to the button. Without this script the "Menu" link opens it (the stylesheet's :target).
  (function menu() {
    var button = document.querySelector(".menu-toggle");
    var panel = document.getElementById("site-menu");
    var header = document.querySelector(".site-header");
    if (!button || !panel || !header) return;
    var link = header.querySelector(".menu-link");
    if (link) link.parentNode.removeChild(link);
    function set(open) {
      button.setAttribute("aria-expanded", open ? "true" : "false");
      panel.classList.toggle("is-open", open);
    }
    set(window.location.hash === "#site-menu");
    header.classList.add("menu-ready");
    button.hidden = false;
    button.addEventListener("click", function () {
      set(button.getAttribute("aria-expanded") !== "true");
    });
    header.addEventListener("keydown", function (event) {
      if (event.key !== "Escape" || button.getAttribute("aria-expanded") !== "true") return;
      set(false);
      button.focus();
    });
  })();

  // Destructive forms ask first.
  document.querySelectorAll("form[data-confirm]").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (!window.confirm(form.getAttribute("data-confirm"))) event.preventDefault();
    });
  });

  // The export's import (/admin/import): "Check" answers in place, so the zip chosen stays chosen
  // for "Import". Without the script (or when the answer cannot be read) the form posts as usual
  // and the page comes back with the report; the file is then chosen again.
  document.querySelectorAll("form[data-check-in-place]").forEach(function (form) {
    var result = document.getElementById(form.getAttribute("data-check-in-place"));
    if (!result || !window.fetch || !window.DOMParser || !window.FormData) return;
    var plain = false;
    form.addEventListener("submit", function (event) {
      var submitter = event.submitter;
      if (plain || !submitter || submitter.value !== "dry-run") return;
      event.preventDefault();
      var body = new FormData(form);
      body.append(submitter.name, submitter.value);
      submitter.disabled = true;
      fetch(form.action, { method: "POST", body: body, credentials: "same-origin" })
        .then(function (response) {
          return response.text();
        })
        .then(function (html) {
          var fresh = new DOMParser().parseFromString(html, "text/html").getElementById(result.id);
          if (!fresh) throw new Error("no result in the answer");
          result.innerHTML = fresh.innerHTML;
          result.focus();
        })
        .then(
          function () {
            submitter.disabled = false;
          },
          function () {
            submitter.disabled = false;
            plain = true;
            form.requestSubmit(submitter);
          },
        );
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

  // Shared files: a file dropped on a form's drop zone is taken as if chosen with its button and
  // sent at once; every upload goes by XMLHttpRequest to show its progress. Without the script the
  // same forms post and the server answers with the next page.
  document.querySelectorAll("form[data-upload]").forEach(function (form) {
    var input = form.querySelector("input[type=file]");
    var zone = form.querySelector("[data-drop-zone]");
    var message = form.querySelector(".file-error");
    var progress = form.querySelector(".upload-progress");
    var button = form.querySelector("button[type=submit]");
    if (!input || !message || !progress || !button) return;
    var bar = progress.querySelector("progress");
    var status = progress.querySelector(".upload-status");
    var maxBytes = Number(form.getAttribute("data-max-file-bytes"));
    function say(text) {
      message.textContent = text;
      if (text !== "") message.focus();
    }
    function check() {
      var file = input.files && input.files[0];
      if (file && file.size > maxBytes) {
        say(form.getAttribute("data-too-large").replace("{name}", file.name));
        return false;
      }
      say("");
      return true;
    }
    function showProgress(percent) {
      bar.value = percent;
      status.textContent = form.getAttribute("data-sending").replace("{percent}", String(percent));
    }
    function send() {
      if (!input.files || input.files.length === 0 || !check()) return;
      var request = new XMLHttpRequest();
      request.open("POST", form.action);
      request.upload.addEventListener("progress", function (event) {
        if (event.lengthComputable) showProgress(Math.floor((event.loaded * 100) / event.total));
      });
      request.addEventListener("load", function () {
        // Success is a redirect the request has followed: go where it led.
        if (request.status < 400 && request.responseURL) return window.location.assign(request.responseURL);
        // A refusal is a page saying what was wrong: show its message here and keep the form.
        var page = new DOMParser().parseFromString(request.responseText, "text/html");
        var alert = page.querySelector(".notice-error[role=alert]:not(:empty)");
        // The folder holds a file of this name: the page asks version or separate file. Ask it
        // here, with the chosen file still in the form.
        var choice = page.querySelector("[data-same-name]");
        if (choice && !form.querySelector("[data-same-name]"))
          button.parentNode.parentNode.insertBefore(document.importNode(choice, true), button.parentNode);
        done(alert ? alert.textContent : form.getAttribute("data-failed"));
      });
      request.addEventListener("error", function () {
        done(form.getAttribute("data-failed"));
      });
      button.disabled = true;
      progress.hidden = false;
      showProgress(0);
      request.send(new FormData(form));
    }
    function done(problem) {
      button.disabled = false;
      progress.hidden = true;
      say(problem);
    }
    message.tabIndex = -1;
    input.addEventListener("change", check);
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      if (check()) send();
      else input.focus();
    });
    if (!zone) return;
    ["dragenter", "dragover"].forEach(function (type) {
      zone.addEventListener(type, function (event) {
        event.preventDefault();
        zone.classList.add("drag-over");
      });
    });
    ["dragleave", "drop"].forEach(function (type) {
      zone.addEventListener(type, function () {
        zone.classList.remove("drag-over");
      });
    });
    zone.addEventListener("drop", function (event) {
      event.preventDefault();
      var dropped = event.dataTransfer && event.dataTransfer.files;
      if (!dropped || dropped.length === 0) return;
      var chosen = new DataTransfer();
      chosen.items.add(dropped[0]);
      input.files = chosen.files;
      if (check()) send();
    });
  });

  // The edit lease runs 10 minutes from the last renewal. Renew it while the person types (on the
  // first key, then at most once a minute), show its new end, and say so when it was lost.
  var note = document.querySelector("[data-lease-action]");
  var editForm = document.getElementById("topic-form");
  if (note && editForm) {
    var csrf = editForm.querySelector("input[name=_csrf]");
    var lost = document.getElementById("lease-lost");
    var until = note.querySelector("time");
    var lastRenewal = 0;
    // The new end, printed as the server prints times (i18n/dates.ts): the person's language and zone.
    var format;
    try {
      format = new Intl.DateTimeFormat(note.getAttribute("data-locale") || undefined, {
        dateStyle: "medium",
        timeStyle: "short",
        timeZone: note.getAttribute("data-time-zone") || undefined,
      });
    } catch {
      format = undefined;
    }
    var renew = function () {
      if (!csrf || Date.now() - lastRenewal < 60 * 1000) return;
      lastRenewal = Date.now();
      var body = new URLSearchParams();
      body.set("_csrf", csrf.value);
      fetch(note.getAttribute("data-lease-action"), { method: "POST", body: body, credentials: "same-origin" })
        .then(function (response) {
          var end = response.headers.get("x-lease-until");
          if (lost) lost.hidden = response.ok;
          if (response.ok && end && until) {
            until.setAttribute("datetime", end);
            until.textContent = format ? format.format(new Date(end)).replace(/\u202f/g, " ") : end;
          }
        })
        .catch(function () {});
    };
    editForm.addEventListener("input", renew);
  }

  // Preview: under each text field that takes Markdown, a button shows the text as its page will
  // (POST /preview renders it with the server's own rules; nothing is stored), then goes back to
  // editing. The text stays in the field, so the form sends it either way.
  document.querySelectorAll("textarea[data-preview]").forEach(function (field, fieldIndex) {
    var csrf = field.form && field.form.querySelector("input[name=_csrf]");
    if (!csrf) return;
    var shown = document.createElement("div");
    shown.id = (field.id || "text-" + fieldIndex) + "-preview";
    shown.className = "markdown preview";
    shown.setAttribute("aria-live", "polite");
    shown.hidden = true;
    var button = document.createElement("button");
    button.type = "button";
    button.className = "small preview-toggle";
    button.setAttribute("aria-controls", shown.id);
    button.textContent = field.getAttribute("data-preview-show");
    field.insertAdjacentElement("afterend", shown);
    field.insertAdjacentElement("afterend", button);
    function editing() {
      shown.hidden = true;
      field.hidden = false;
      button.textContent = field.getAttribute("data-preview-show");
    }
    function say(html, text) {
      if (html) shown.innerHTML = html;
      else shown.textContent = text;
      shown.hidden = false;
      field.hidden = true;
      button.textContent = field.getAttribute("data-preview-edit");
    }
    button.addEventListener("click", function () {
      if (!shown.hidden) {
        editing();
        field.focus();
        return;
      }
      var body = new URLSearchParams();
      body.set("_csrf", csrf.value);
      body.set("text", field.value);
      fetch(field.getAttribute("data-preview"), { method: "POST", body: body, credentials: "same-origin" })
        .then(function (response) {
          if (!response.ok) throw new Error(String(response.status));
          return response.text();
        })
        .then(function (html) {
          say(html.trim(), field.getAttribute("data-preview-empty"));
        })
        .catch(function () {
          say("", field.getAttribute("data-preview-failed"));
        });
    });
  });

  // Chat: Enter sends the message and Shift+Enter starts a new line. While an input method is
  // composing (Japanese, Chinese), Enter only confirms the composition; an empty message with no
  // file is not sent.
  document.querySelectorAll("textarea[data-enter-sends]").forEach(function (field) {
    field.addEventListener("keydown", function (event) {
      if (event.key !== "Enter" || event.shiftKey || event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.isComposing || event.keyCode === 229) return;
      event.preventDefault();
      var form = field.form;
      var files = form && form.querySelector("input[type=file]");
      if (!form || (field.value.trim() === "" && !(files && files.files && files.files.length > 0))) return;
      if (form.requestSubmit) form.requestSubmit();
      else form.submit();
    });
  });

  // Mentions: typing @ in a text field of a group lists its members in a listbox under the field
  // (the field points at it with aria-controls and aria-activedescendant, so focus stays in the
  // text; a text area may not carry aria-expanded, the status line says what is listed); the arrows move, Enter or Tab picks, Escape closes. Picking inserts the member's
  // handle as the server reads it (@Name, @"Full Name" or @local-part).
  var MENTION_BEFORE_CARET = /(^|[^\p{L}\p{N}\p{M}_.+@-])@("[^"\n\r]*|[\p{L}\p{N}\p{M}_.+-]*)$/u;
  document.querySelectorAll("textarea[data-mention-source]").forEach(function (field, fieldIndex) {
    var source = field.getAttribute("data-mention-source");
    var listId = (field.id || "text-" + fieldIndex) + "-mentions";
    var list = document.createElement("ul");
    list.id = listId;
    list.className = "mention-list";
    list.setAttribute("role", "listbox");
    list.setAttribute("aria-label", field.getAttribute("data-mention-label") || "");
    list.hidden = true;
    var status = document.createElement("p");
    status.className = "visually-hidden";
    status.setAttribute("role", "status");
    field.insertAdjacentElement("afterend", list);
    list.insertAdjacentElement("afterend", status);
    field.setAttribute("aria-autocomplete", "list");
    field.setAttribute("aria-controls", listId);
    var members = [];
    var active = -1;
    var start = -1;
    var asked = 0;
    var timer = 0;

    // The text typed after an @ that starts a mention, up to the caret; null when there is none.
    function typed() {
      var caret = field.selectionStart;
      if (caret !== field.selectionEnd) return null;
      var match = MENTION_BEFORE_CARET.exec(field.value.slice(0, caret));
      if (!match) return null;
      start = caret - match[2].length - 1;
      return match[2].replace(/^"/, "");
    }
    function close() {
      members = [];
      active = -1;
      list.hidden = true;
      list.textContent = "";
      field.removeAttribute("aria-activedescendant");
    }
    function highlight(index) {
      active = index;
      Array.prototype.forEach.call(list.children, function (option, i) {
        option.setAttribute("aria-selected", String(i === index));
      });
      var option = list.children[index];
      if (!option) return;
      field.setAttribute("aria-activedescendant", option.id);
      option.scrollIntoView({ block: "nearest" });
    }
    function show(found) {
      close();
      members = found;
      status.textContent = found.length
        ? (field.getAttribute("data-mention-count") || "").replace("{n}", String(found.length))
        : field.getAttribute("data-mention-none") || "";
      if (found.length === 0) return;
      found.forEach(function (member, i) {
        var option = document.createElement("li");
        option.id = listId + "-" + i;
        option.setAttribute("role", "option");
        option.textContent = member.name + " ";
        var handle = document.createElement("span");
        handle.className = "mention-handle";
        handle.textContent = member.insert;
        option.appendChild(handle);
        // mousedown, not click: the field keeps its focus and caret.
        option.addEventListener("mousedown", function (event) {
          event.preventDefault();
          pick(i);
        });
        list.appendChild(option);
      });
      list.hidden = false;
      highlight(0);
    }
    function pick(index) {
      var member = members[index];
      if (!member) return;
      var caret = field.selectionStart;
      var text = member.insert + " ";
      field.value = field.value.slice(0, start) + text + field.value.slice(caret);
      field.setSelectionRange(start + text.length, start + text.length);
      close();
      status.textContent = "";
      field.focus();
    }
    function update() {
      var query = typed();
      window.clearTimeout(timer);
      if (query === null) {
        close();
        return;
      }
      var ask = ++asked;
      timer = window.setTimeout(function () {
        fetch(source + "?q=" + encodeURIComponent(query), { credentials: "same-origin" })
          .then(function (answer) {
            return answer.ok ? answer.json() : { members: [] };
          })
          .then(function (data) {
            if (ask === asked) show(data.members || []);
          })
          .catch(function () {});
      }, 120);
    }
    field.addEventListener("input", update);
    field.addEventListener("keydown", function (event) {
      if (list.hidden || members.length === 0) return;
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        var step = event.key === "ArrowDown" ? 1 : members.length - 1;
        highlight((active + step) % members.length);
      } else if ((event.key === "Enter" || event.key === "Tab") && active >= 0) {
        event.preventDefault();
        pick(active);
      } else if (event.key === "Escape") {
        event.preventDefault();
        close();
      }
    });
    field.addEventListener("blur", function () {
      window.setTimeout(close, 150);
    });
  });
  // Chat: a conversation page receives new messages as they arrive. A `chat` event of the live
  // stream naming this room fetches the messages after the last one shown (a page of this site,
  // read for its list) and appends them; while the stream fails (or before it exists, or behind a
  // proxy that cuts it) the same fetch runs every 10 seconds.
  (function () {
    var list = document.getElementById("chat-messages");
    if (!list || !window.fetch || !window.DOMParser) return;
    var room = list.getAttribute("data-room");
    var href = list.getAttribute("data-new-href");
    var busy = false;
    var pollTimer = null;
    function fetchNew() {
      if (busy) return;
      busy = true;
      var after = list.getAttribute("data-last") || "0";
      fetch(href + "&after=" + encodeURIComponent(after), { credentials: "same-origin" })
        .then(function (response) {
          return response.ok ? response.text() : "";
        })
        .then(function (text) {
          var doc = new DOMParser().parseFromString(text, "text/html");
          var items = doc.querySelectorAll("#chat-new > li");
          for (var i = 0; i < items.length; i++) {
            var number = Number(items[i].getAttribute("data-number"));
            if (number > Number(list.getAttribute("data-last") || "0") && !document.getElementById(items[i].id)) {
              list.appendChild(document.importNode(items[i], true));
              list.setAttribute("data-last", String(number));
            }
          }
          var empty = document.getElementById("chat-empty");
          if (empty && list.children.length > 0) empty.hidden = true;
        })
        .catch(function () {})
        .then(function () {
          busy = false;
        });
    }
    function poll(on) {
      if (on && pollTimer === null) pollTimer = window.setInterval(fetchNew, 10000);
      if (!on && pollTimer !== null) {
        window.clearInterval(pollTimer);
        pollTimer = null;
      }
    }
    if (!window.EventSource) {
      poll(true);
      return;
    }
    var stream = liveStream();
    var names = new RegExp(",MP_CHAT,1:" + room + ",COMMENT,");
    stream.addEventListener("chat", function (event) {
      if (names.test(String(event.data))) fetchNew();
    });
    stream.addEventListener("open", function () {
      poll(false);
      fetchNew();
    });
    stream.addEventListener("error", function () {
      poll(true);
    });
  })();

  // Live updates: the header's counts are the server's (/unread: unconfirmed notifications, unread
  // chat messages), counted again whenever the live stream says something arrived or was read (in
  // this tab, another tab or another browser) and when the stream (re)connects; the notifications
  // page reloads its list in place. Without EventSource (or this script) the counts are those of
  // the page's load.
  (function live() {
    var badges = document.querySelectorAll(".site-header [data-unread]");
    if (badges.length === 0 || !window.EventSource || !window.fetch) return;
    var link = document.querySelector('.site-nav a[href$="/notifications"]');
    var onList = link !== null && link.getAttribute("aria-current") === "page";
    var seen = {};
    var refreshing = false;
    var counting = false;
    var again = false;
    function refreshList() {
      if (refreshing) return;
      refreshing = true;
      fetch(window.location.href, { credentials: "same-origin" })
        .then(function (response) {
          return response.ok ? response.text() : "";
        })
        .then(function (html) {
          var fresh = html && new DOMParser().parseFromString(html, "text/html").getElementById("content");
          var current = document.getElementById("content");
          if (fresh && current) current.innerHTML = fresh.innerHTML;
        })
        .catch(function () {})
        .then(function () {
          refreshing = false;
        });
    }
    function show(counts) {
      badges.forEach(function (badge) {
        var n = Number(counts[badge.getAttribute("data-unread")] || 0);
        badge.hidden = n === 0;
        badge.firstElementChild.textContent = String(n);
        badge.lastElementChild.textContent = (badge.getAttribute("data-label") || "").replace("{n}", String(n));
      });
    }
    // One request at a time; events that come meanwhile ask for one more afterwards.
    function count() {
      if (counting) {
        again = true;
        return;
      }
      counting = true;
      fetch("/unread", { credentials: "same-origin" })
        .then(function (response) {
          return response.ok ? response.json() : null;
        })
        .then(function (counts) {
          if (counts) show(counts);
        })
        .catch(function () {})
        .then(function () {
          counting = false;
          if (again) {
            again = false;
            count();
          }
        });
    }
    function arrived(event) {
      if (seen[event.lastEventId]) return;
      seen[event.lastEventId] = true;
      count();
      if (onList) refreshList();
    }
    var source = liveStream();
    source.addEventListener("notification", arrived);
    source.addEventListener("likeNotification", arrived);
    source.addEventListener("chat", count);
    source.addEventListener("read", function () {
      count();
      if (onList) refreshList();
    });
    source.addEventListener("open", count);
    window.addEventListener("pagehide", function () {
      source.close();
    });
  })();
})();
