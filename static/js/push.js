// Push: an element marked data-events="<url>" opens one stream of Server-Sent Events for
// the page (games/push.py). Each event says the game changed (its version); the page then
// asks for the new table with its poll (poll.js: "poll-now" on every data-poll element).
//
// The stream replaces the poll: while it is open, html[data-push=open] tells poll.js to
// send no timed poll. While it is down (never opened, cut, refused), the page polls every
// 5 s as before, says so (#push-status), and tries the stream again, less and less often.
// A hidden tab holds no stream (and polls not at all: poll.js); shown again, it reopens it.
//
// The URL carries a short-lived pass (games/push_token.py). The stream sends a fresh one now
// and then (event "token"), and so does a table fetched by the poll (the X-Events header):
// the next stream opens with the latest. Where the server has no push (the URL reaches WSGI,
// not an ASGI process, or PUSH_ENABLED is off) the stream answers 204: the page polls.
//
// A version announced while a poll is on its way is not lost: htmx queues the second poll on
// the table, but drops it when the first one's answer replaces the table. So each new table
// is compared with the latest version announced, and one behind asks again.
(function () {
  "use strict";

  var FIRST_RETRY = 5000;
  var LAST_RETRY = 60000;
  var element = null;
  var source = null;
  var retryIn = FIRST_RETRY;
  var retryTimer = null;
  var announced = 0; // the latest version the stream announced

  function tableVersion(poller) {
    var url = new URL(poller.getAttribute("hx-get") || "", window.location.href);
    return parseInt(url.searchParams.get("v"), 10) || 0;
  }

  function setState(open) {
    document.documentElement.setAttribute("data-push", open ? "open" : "down");
    var line = document.getElementById("push-status");
    if (line) {
      line.hidden = open;
    }
  }

  function pollNow() {
    document.querySelectorAll("[data-poll]").forEach(function (poller) {
      poller.dispatchEvent(new Event("poll-now"));
    });
  }

  function setParam(name, value) {
    var url = new URL(element.getAttribute("data-events"), window.location.href);
    url.searchParams.set(name, value);
    element.setAttribute("data-events", url.pathname + url.search);
  }

  function close() {
    if (source) {
      source.close();
      source = null;
    }
  }

  function later() {
    clearTimeout(retryTimer);
    retryTimer = setTimeout(open, retryIn);
    retryIn = Math.min(retryIn * 2, LAST_RETRY);
  }

  function open() {
    clearTimeout(retryTimer);
    if (source || document.hidden) {
      return;
    }
    var stream = new EventSource(element.getAttribute("data-events"));
    source = stream;
    stream.onopen = function () {
      retryIn = FIRST_RETRY;
      setState(true);
    };
    stream.onmessage = function (event) {
      if (/^\d+$/.test(event.data)) {
        announced = Math.max(announced, parseInt(event.data, 10));
        setParam("v", event.data); // the next stream need not announce it again
      }
      pollNow();
    };
    stream.addEventListener("token", function (event) {
      setParam("t", event.data);
    });
    stream.onerror = function () {
      // Cut, refused or unavailable: the browser's own retry would reuse the old pass.
      if (source === stream) {
        close();
        setState(false);
        later();
      }
    };
  }

  function start() {
    element = document.querySelector("[data-events]");
    if (!element || !window.EventSource) {
      return;
    }
    document.addEventListener("visibilitychange", function () {
      if (document.hidden) {
        clearTimeout(retryTimer);
        close();
        document.documentElement.removeAttribute("data-push");
      } else {
        retryIn = FIRST_RETRY;
        open();
      }
    });
    document.addEventListener("htmx:load", function (event) {
      var poller = event.detail.elt;
      if (poller.hasAttribute && poller.hasAttribute("data-poll") && tableVersion(poller) < announced) {
        poller.dispatchEvent(new Event("poll-now"));
      }
    });
    document.addEventListener("htmx:afterRequest", function (event) {
      var xhr = event.detail.xhr;
      var fresh = xhr && xhr.getResponseHeader("X-Events");
      if (fresh) {
        element.setAttribute("data-events", fresh);
      }
    });
    open();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
