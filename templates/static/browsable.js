// Sends the browsable view's forms as the API takes them (a same-origin script, which the
// content-security policy allows): the raw data, or the HTML form's fields gathered into an
// object, as application/json with the form's method, OPTIONS and DELETE without a body, each
// with the session's CSRF token; then shows the reply as the server renders it for a browser,
// as DRF's ajax-form does.
(function () {
  "use strict";
  var meta = document.querySelector('meta[name="csrf-token"]');
  var csrf = meta ? meta.getAttribute("content") : "";
  function show(text) {
    document.open();
    document.write(text);
    document.close();
  }
  document.querySelectorAll("form.api-form").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var method = form.getAttribute("data-method");
      var question = form.getAttribute("data-confirm");
      if (question && !window.confirm(question)) return;
      var headers = { Accept: "text/html" };
      if (csrf) headers["X-CSRFToken"] = csrf;
      var init = { method: method, headers: headers, credentials: "same-origin" };
      var raw = form.querySelector('textarea[name="_content"]');
      var fields = form.querySelectorAll("[data-sends]");
      if (raw) {
        headers["Content-Type"] = "application/json";
        init.body = raw.value;
      } else if (fields.length) {
        // The HTML form: a field left empty is not sent; numbers as numbers, the rest as JSON
        // where it reads as JSON (links, lists, objects), else as text.
        var body = {};
        fields.forEach(function (field) {
          var value = field.value;
          var sends = field.getAttribute("data-sends");
          if (value === "") return;
          if (sends === "number") body[field.name] = Number(value);
          else if (sends === "json") {
            try { body[field.name] = JSON.parse(value); } catch (notJson) { body[field.name] = value; }
          } else body[field.name] = value;
        });
        headers["Content-Type"] = "application/json";
        init.body = JSON.stringify(body);
      }
      fetch(form.getAttribute("action"), init).then(function (reply) {
        // A DELETE answers 204 with nothing to show: the list is where the object was.
        if (reply.status === 204) {
          window.location.assign(form.getAttribute("action").replace(/[^/]+\/(\?.*)?$/, ""));
          return undefined;
        }
        return reply.text().then(show);
      }).catch(function (error) {
        var result = document.getElementById("result");
        result.hidden = false;
        result.textContent = String(error);
      });
    });
  });
})();
