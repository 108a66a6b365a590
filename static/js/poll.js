// Open game pages follow the game by polling: an element marked data-poll asks every few
// seconds (hx-trigger "every 5s, poll-now"), unless its push stream is open (push.js). A page that is not visible (another tab, a
// minimised window) sends no poll, and asks at once when it is shown again. (htmx's trigger
// filters, "every 5s [document.visibilityState === 'visible']", would need eval, which the
// site's Content-Security-Policy forbids: hence this file.)
(function () {
  "use strict";

  // No timed poll while the page's push stream is open (push.js sets data-push=open): the
  // stream says when to ask ("poll-now"), so the page polls only while the stream is down.
  document.addEventListener("htmx:confirm", function (event) {
    if (!event.detail.elt.hasAttribute("data-poll")) {
      return;
    }
    var timed = !event.detail.triggeringEvent || event.detail.triggeringEvent.type !== "poll-now";
    var live = document.documentElement.getAttribute("data-push") === "open";
    if (document.hidden || (live && timed)) {
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

  // A redraw of the table (someone moved) must not lose a note being written: the open note
  // forms, what is typed in them and the caret are put back on the new table. The form whose
  // own request brought the new table is not: its note is saved, and its form closes.
  var drafts = [];
  var focused = null;

  document.addEventListener("htmx:beforeSwap", function (event) {
    drafts = [];
    focused = null;
    if (!event.detail.target || event.detail.target.id !== "table") {
      return;
    }
    // The element that sent the request: the table itself for a poll, a form for a post.
    var sender = event.detail.requestConfig && event.detail.requestConfig.elt;
    var saved = sender && sender.closest ? sender.closest("details.note-form") : null;
    document.querySelectorAll("details.note-form[open] input[name=note]").forEach(function (input) {
      if (!saved || !saved.contains(input)) {
        drafts.push({ id: input.id, value: input.value });
      }
    });
    var active = document.activeElement;
    if (active && active.id && drafts.some(function (d) { return d.id === active.id; })) {
      focused = { id: active.id, start: active.selectionStart, end: active.selectionEnd };
    }
  });

  document.addEventListener("htmx:afterSwap", function () {
    drafts.forEach(function (draft) {
      var input = document.getElementById(draft.id);
      if (!input) {
        return; // the card left the hand
      }
      input.value = draft.value;
      var details = input.closest("details");
      if (details) {
        details.open = true;
      }
    });
    if (focused) {
      var input = document.getElementById(focused.id);
      if (input) {
        input.focus();
        input.setSelectionRange(focused.start, focused.end);
      }
    }
    drafts = [];
    focused = null;
  });
})();
