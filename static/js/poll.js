// Open game pages follow the game by polling: an element marked data-poll asks every few
// seconds (hx-trigger "every 5s, poll-now"). A page that is not visible (another tab, a
// minimised window) sends no poll, and asks at once when it is shown again. (htmx's trigger
// filters, "every 5s [document.visibilityState === 'visible']", would need eval, which the
// site's Content-Security-Policy forbids: hence this file.)
(function () {
  "use strict";

  document.addEventListener("htmx:confirm", function (event) {
    if (document.hidden && event.detail.elt.hasAttribute("data-poll")) {
      event.preventDefault();
    }
  });

  document.addEventListener("visibilitychange", function () {
    if (document.hidden) {
      return;
    }
    document.querySelectorAll("[data-poll]").forEach(function (element) {
      element.dispatchEvent(new Event("poll-now"));
    });
  });
})();
