// Runs first: every uncaught error, rejected promise and console.error of
// the page lands in <pre id="ht-errors">, which the tests read from the DOM
// (an error on the page must never go unseen).
(function () {
  "use strict";
  var box = document.getElementById("ht-errors");
  function note(text) {
    box.hidden = false;
    box.textContent += text + "\n";
  }
  window.addEventListener("error", function (e) {
    note("error: " + e.message + " (" + (e.filename || "page") + ":" + e.lineno + ")");
  });
  window.addEventListener("unhandledrejection", function (e) {
    note("unhandled rejection: " + e.reason);
  });
  var consoleError = console.error;
  console.error = function () {
    note("console.error: " + Array.prototype.join.call(arguments, " "));
    return consoleError.apply(console, arguments);
  };
})();
