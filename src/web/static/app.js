// Kairan web interface: small enhancements only. Every page works without this script; it adds
// local times, delete confirmations, a check of the files chosen for a comment, drag and drop
// and progress for shared-file uploads, and keeps the edit lease of an open edit form while the
// person types.
(function () {
  "use strict";

  // Times are printed in UTC by the server; show them in the reader's own zone and language.
  var lang = document.documentElement.lang || undefined;
  var format;
  try {
    format = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" });
  } catch {
    format = null;
  }
  if (format) {
    document.querySelectorAll("time[datetime]").forEach(function (element) {
      var value = element.getAttribute("datetime");
      if (!value || value.length <= 10) return;
      var date = new Date(value);
      if (!isNaN(date.getTime())) {
        element.title = element.textContent;
        element.textContent = format.format(date);
      }
    });
  }

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
            until.textContent = format ? format.format(new Date(end)) : end;
          }
        })
        .catch(function () {});
    };
    editForm.addEventListener("input", renew);
  }

  // Task form: a due time is typed on the reader's own clock. Send the reader's zone with it, say
  // which zone that is, and show a due time the server wrote in UTC on the reader's clock.
  var taskForm = document.getElementById("task-form");
  var zoneField = taskForm && taskForm.querySelector("input[name=zone]");
  var readerZone;
  try {
    readerZone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch {
    readerZone = "";
  }
  if (taskForm && zoneField && readerZone && zoneField.value === "UTC") {
    zoneField.value = readerZone;
    var zoneName = taskForm.querySelector(".zone-name");
    if (zoneName) zoneName.textContent = zoneName.getAttribute("data-template").replace("{zone}", readerZone);
    var due = new Date(taskForm.getAttribute("data-due-utc") || "");
    if (!isNaN(due.getTime())) {
      var pad = function (n) {
        return String(n).padStart(2, "0");
      };
      taskForm.querySelector("input[name=dueDate]").value =
        due.getFullYear() + "-" + pad(due.getMonth() + 1) + "-" + pad(due.getDate());
      taskForm.querySelector("input[name=dueTime]").value = pad(due.getHours()) + ":" + pad(due.getMinutes());
    }
  }
})();
