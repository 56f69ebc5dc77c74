// Sends the browsable view's forms as the API takes them (a same-origin script, which the
// content-security policy allows): the raw data as application/json with the page's method,
// OPTIONS and DELETE without a body, each with the session's CSRF token; then shows the reply
// as the server renders it for a browser, as DRF's ajax-form does.
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
      var content = form.querySelector("textarea");
      if (content) {
        headers["Content-Type"] = "application/json";
        init.body = content.value;
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
