// Push: an element marked data-events="<url>" opens one stream of Server-Sent Events for
// the page (games/push.py). Each event says the game changed; the page then asks for the
// new table with its poll (poll.js: "poll-now" on every data-poll element). Where the
// server has no push (the URL reaches WSGI, not an ASGI process, or PUSH_ENABLED is off) the
// stream answers 204, the browser does not ask again, and the page keeps to its poll.
(function () {
  "use strict";

  function start() {
    var element = document.querySelector("[data-events]");
    if (!element || !window.EventSource) {
      return;
    }
    var source = new EventSource(element.getAttribute("data-events"));
    source.onopen = function () {
      document.documentElement.setAttribute("data-push", "open");
    };
    source.onmessage = function () {
      document.querySelectorAll("[data-poll]").forEach(function (poller) {
        poller.dispatchEvent(new Event("poll-now"));
      });
    };
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
