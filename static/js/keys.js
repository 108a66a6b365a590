// Keyboard play, after hanab.live's shortcuts (its docs/features.md, "Keyboard Shortcuts"):
//
//   your turn   a or +: play, d or -: discard, then the card's slot number (1-5) or ←/→;
//               1-5: a rank clue, q w e r t y: a colour clue (red, yellow, green, blue,
//               white, multicolour), ; : the next teammate to clue;
//               Enter: do the move chosen (a play then asks "Play this card?": Enter again);
//               Escape: forget the choice (on the "Play this card?" box: Cancel).
//   a replay    ←/→: previous/next turn, Home/End: first/last turn.
//   anywhere    ?: the list of shortcuts (a <dialog>; Escape closes it); k: what every
//               teammate knows of their cards (empathy, as on hanab.live; k again hides it).
//
// Empathy: a click on a teammate's cards (or on their "What … knows" button) turns every
// card of that hand to what its holder knows of it, drawn over the card in the same box
// (.hand.empathy-on, static/css/site.css); a click again turns it back. The button's
// aria-pressed says which; each card's sentence for screen readers is always there.
//
// Choosing a move moves the keyboard focus to its button (Enter then presses it, as it
// would any focused button), marks it (.keys-chosen; the teammate to clue: .keys-target)
// and says it in a live region (#keys-status) for screen readers. No key is taken while
// the person types (input, textarea, select, contenteditable) or holds Ctrl, Alt or Meta.
//
// htmx replaces the whole table after every move and whenever the game changes: the
// handlers sit on the document, and what was chosen is kept here, by card and seat, and
// shown again on the new table (forgotten when the turn changes).
(function () {
  "use strict";

  var COLOURS = ["red", "yellow", "green", "blue", "white", "multicolour"];
  var COLOUR_KEYS = "qwerty";
  var MAX_RANK = 5;

  // mode: "play", "discard", "clue" or null; cardId/slot: the card chosen to play or
  // discard; target: the seat to clue (a string); clue: "colour:red" or "rank:3".
  var state = { turn: null, mode: null, cardId: null, slot: null, target: null, clue: null };
  var refocus = false; // after the next swap, focus the chosen button again
  var lastFocus = null; // what had the focus when the help opened

  // ---- The page -----------------------------------------------------------------------

  function table() {
    return document.getElementById("table");
  }

  function inTable(selector) {
    var root = table();
    return root ? Array.prototype.slice.call(root.querySelectorAll(selector)) : [];
  }

  // Which turn the table shows: its poll says (turn=N), else a move form's hidden input.
  function turnShown() {
    var root = table();
    if (!root) {
      return null;
    }
    var match = /[?&]turn=(\d+)/.exec(root.getAttribute("hx-get") || "");
    if (match) {
      return match[1];
    }
    var input = root.querySelector('input[name="turn"]');
    return input ? input.value : null;
  }

  function asButton(element) {
    if (!element) {
      return null;
    }
    if (element.matches("button, input[type=submit]")) {
      return element;
    }
    return element.querySelector("button, input[type=submit]");
  }

  function hiddenValue(form, name) {
    var input = form && form.querySelector('input[name="' + name + '"]');
    return input ? input.value : null;
  }

  function outsideConfirm(element) {
    return !element.closest(".confirm");
  }

  // The viewer's own cards, in order: {li, slot, cardId}.
  function myCards() {
    var hand = table() && table().querySelector(".hand.mine");
    if (!hand) {
      return [];
    }
    var items = hand.querySelectorAll("li[data-slot], li.card");
    return Array.prototype.map.call(items, function (li, index) {
      var slot = parseInt(li.getAttribute("data-slot"), 10);
      if (isNaN(slot)) {
        var label = li.querySelector(".slot");
        var found = label && /\d+/.exec(label.textContent);
        slot = found ? parseInt(found[0], 10) : index + 1;
      }
      var cardId = li.getAttribute("data-card-id") || hiddenValue(li, "card");
      return { li: li, slot: slot, cardId: cardId };
    });
  }

  // A card's Play or Discard button, if the page offers it.
  function actionButton(li, kind) {
    var marked = li.querySelector('[data-action="' + kind + '"]');
    if (marked) {
      return asButton(marked);
    }
    var input = li.querySelector('input[name="kind"][value="' + kind + '"]');
    return input ? asButton(input.form) : null;
  }

  function myTurn() {
    return myCards().some(function (card) {
      return actionButton(card.li, "play");
    });
  }

  function canDiscard() {
    return myCards().some(function (card) {
      return actionButton(card.li, "discard");
    });
  }

  // The other hands, in the page's order (the next to play first): {section, seat, name}.
  function teammates() {
    var sections = inTable(".hand:not(.mine)");
    return sections.map(function (section) {
      var heading = section.querySelector("h2");
      var seat = section.getAttribute("data-seat");
      if (seat === null) {
        var match = /(\d+)$/.exec(section.getAttribute("aria-labelledby") || "");
        seat = match ? match[1] : null;
      }
      var name = "";
      if (heading) {
        var copy = heading.cloneNode(true);
        copy.querySelectorAll(".badge, .visually-hidden").forEach(function (part) {
          part.remove();
        });
        name = copy.textContent.replace(/\s+/g, " ").trim();
      }
      return { section: section, seat: seat, name: name || words("teammate", "your teammate") };
    });
  }

  // Every clue button: {button, target, colour, rank}, from data-clue="target:1 colour:red"
  // or from the hidden inputs of its form.
  function clueButtons() {
    var marked = inTable("[data-clue]").filter(outsideConfirm);
    if (marked.length) {
      return marked.map(function (element) {
        var clue = { button: asButton(element), target: null, colour: null, rank: null };
        element
          .getAttribute("data-clue")
          .split(/\s+/)
          .forEach(function (part) {
            var at = part.indexOf(":");
            var name = part.slice(0, at);
            if (name === "color") {
              name = "colour";
            }
            if (at > 0 && name in clue) {
              clue[name] = part.slice(at + 1);
            }
          });
        return clue;
      });
    }
    return inTable('input[name="kind"][value="clue"]').map(function (input) {
      return {
        button: asButton(input.form),
        target: hiddenValue(input.form, "target"),
        colour: hiddenValue(input.form, "colour"),
        rank: hiddenValue(input.form, "rank"),
      };
    });
  }

  // ---- What is chosen -----------------------------------------------------------------

  function chosenCard() {
    var cards = myCards();
    var i;
    for (i = 0; i < cards.length; i++) {
      if (state.cardId && cards[i].cardId === state.cardId) {
        return cards[i];
      }
    }
    for (i = 0; i < cards.length; i++) {
      if (!state.cardId && cards[i].slot === state.slot) {
        return cards[i];
      }
    }
    return null;
  }

  function target() {
    var mates = teammates();
    for (var i = 0; i < mates.length; i++) {
      if (mates[i].seat === state.target) {
        return mates[i];
      }
    }
    return mates[0] || null;
  }

  function chosenClue() {
    var mate = target();
    if (!mate || !state.clue) {
      return null;
    }
    var parts = state.clue.split(":");
    var found = clueButtons().filter(function (clue) {
      return clue.target === mate.seat && clue[parts[0]] === parts[1];
    });
    return found.length ? found[0] : null;
  }

  // The button Enter would press: the chosen card's Play/Discard, or the chosen clue.
  function chosenButton() {
    if (state.mode === "play" || state.mode === "discard") {
      var card = chosenCard();
      return card ? actionButton(card.li, state.mode) : null;
    }
    if (state.mode === "clue") {
      var clue = chosenClue();
      return clue ? clue.button : null;
    }
    return null;
  }

  function forget() {
    state.mode = null;
    state.cardId = null;
    state.slot = null;
    state.clue = null;
  }

  // Marks what is chosen on the table as it is now; returns the button Enter would press.
  function show() {
    document.querySelectorAll(".keys-chosen, .keys-target").forEach(function (element) {
      element.classList.remove("keys-chosen", "keys-target");
    });
    if (!state.mode) {
      return null;
    }
    if (state.mode === "clue") {
      var mate = target();
      if (mate) {
        mate.section.classList.add("keys-target");
      }
    } else {
      var card = chosenCard();
      if (card) {
        card.li.classList.add("keys-chosen");
      }
    }
    var button = chosenButton();
    if (button) {
      button.classList.add("keys-chosen");
    }
    return button;
  }

  function focus(button) {
    if (button) {
      button.focus();
      if (button.scrollIntoView) {
        button.scrollIntoView({ block: "nearest" });
      }
    }
  }

  // A hand takes the focus, so that Enter presses no button chosen before.
  function focusHand(section) {
    if (section) {
      section.setAttribute("tabindex", "-1");
      section.focus();
    }
  }

  var statusTimer = null;

  // Says it to screen readers: the live region's text changes (emptied first, so the same
  // sentence twice is said twice).
  function say(text) {
    var region = document.getElementById("keys-status");
    if (!region) {
      return;
    }
    region.textContent = "";
    window.clearTimeout(statusTimer);
    statusTimer = window.setTimeout(function () {
      region.textContent = text;
    }, 50);
  }

  // A sentence in the page's language: templates/games/_keys_help.html writes each in a
  // data- attribute of #keys-words (no script catalogue), with {slot}, {count}, {name} or
  // {label} to fill in; the English here is said when the page has no such element.
  function words(key, english, values) {
    var holder = document.getElementById("keys-words");
    var attribute = "data-" + key;
    var text = holder && holder.hasAttribute(attribute) ? holder.getAttribute(attribute) : english;
    Object.keys(values || {}).forEach(function (name) {
      text = text.split("{" + name + "}").join(String(values[name]));
    });
    return text;
  }

  function colourWord(colour) {
    return words("colour-" + colour, colour);
  }

  // ---- The moves ----------------------------------------------------------------------

  function notYourTurn() {
    say(table() ? words("not-your-turn", "It is not your turn.") : "");
  }

  function startAction(kind) {
    if (!myTurn()) {
      notYourTurn();
      return;
    }
    if (kind === "discard" && !canDiscard()) {
      say(words("no-discard", "You cannot discard now: every clue token is in the box. Play or clue."));
      return;
    }
    var keep = (state.mode === "play" || state.mode === "discard") && chosenCard();
    state.mode = kind;
    state.clue = null;
    if (keep) {
      chooseCard(keep.slot);
      return;
    }
    state.cardId = null;
    state.slot = null;
    show();
    focusHand(table().querySelector(".hand.mine"));
    var count = myCards().length;
    say(
      kind === "play"
        ? words("play-which", "Play which card? Press its slot number, 1 to {count}, or the arrow keys.", {
            count: count,
          })
        : words("discard-which", "Discard which card? Press its slot number, 1 to {count}, or the arrow keys.", {
            count: count,
          })
    );
  }

  function chooseCard(slot) {
    var cards = myCards();
    var card = null;
    cards.forEach(function (each) {
      if (each.slot === slot) {
        card = each;
      }
    });
    if (!card) {
      say(words("no-card", "There is no card in slot {slot}.", { slot: slot }));
      return;
    }
    state.slot = card.slot;
    state.cardId = card.cardId;
    var button = show();
    if (!button) {
      say(
        state.mode === "play"
          ? words("cannot-play", "The card in slot {slot} cannot be played now.", { slot: slot })
          : words("cannot-discard", "The card in slot {slot} cannot be discarded now.", { slot: slot })
      );
      return;
    }
    focus(button);
    // The button's own name is read as it takes the focus: the sentence says what next.
    say(
      state.mode === "play"
        ? words("enter-plays", "Enter plays slot {slot}, Escape forgets it.", { slot: slot })
        : words("enter-discards", "Enter discards slot {slot}, Escape forgets it.", { slot: slot })
    );
  }

  function moveCard(step) {
    var cards = myCards();
    if (!cards.length) {
      return;
    }
    var at = -1;
    var current = chosenCard();
    cards.forEach(function (card, index) {
      if (current && card.li === current.li) {
        at = index;
      }
    });
    if (at < 0) {
      at = step > 0 ? -1 : cards.length;
    }
    var next = (at + step + cards.length) % cards.length;
    chooseCard(cards[next].slot);
  }

  function chooseClue(kind, value, label) {
    if (!myTurn()) {
      notYourTurn();
      return;
    }
    var mate = target();
    if (!mate) {
      return;
    }
    if (!clueButtons().length) {
      say(words("no-clue-token", "No clue can be given now: there is no clue token left. Play or discard."));
      return;
    }
    var before = { mode: state.mode, cardId: state.cardId, slot: state.slot, clue: state.clue };
    state.mode = "clue";
    state.cardId = null;
    state.slot = null;
    state.target = mate.seat;
    state.clue = kind + ":" + value;
    var button = show();
    if (!button) {
      // No such clue: what was chosen before stays chosen.
      state.mode = before.mode;
      state.cardId = before.cardId;
      state.slot = before.slot;
      state.clue = before.mode === "clue" ? before.clue : null;
      show();
      say(
        words("no-such-clue", "No {label} clue for {name}: it would touch none of their cards.", {
          label: label,
          name: mate.name,
        })
      );
      return;
    }
    focus(button);
    say(words("enter-clues", "Enter gives this clue, Escape forgets it."));
  }

  function nextTeammate() {
    if (!myTurn()) {
      notYourTurn();
      return;
    }
    var mates = teammates();
    if (!mates.length) {
      return;
    }
    var current = target();
    var at = 0;
    mates.forEach(function (mate, index) {
      if (current && mate.seat === current.seat) {
        at = index;
      }
    });
    var mate = state.mode === "clue" ? mates[(at + 1) % mates.length] : current;
    state.mode = "clue";
    state.cardId = null;
    state.slot = null;
    state.target = mate.seat;
    var button = show();
    if (button) {
      focus(button);
      say(words("enter-clues", "Enter gives this clue, Escape forgets it."));
      return;
    }
    // Their hand takes the focus (not a button: Enter gives nothing until a clue is chosen).
    state.clue = null;
    focusHand(mate.section);
    say(
      words(
        "clue-whom",
        "Clue {name}: press a rank, 1 to 5, or a colour: q red, w yellow, e green, r blue, t white, y multicolour.",
        { name: mate.name }
      )
    );
  }

  function cancel() {
    var confirmBox = table() && table().querySelector(".confirm");
    if (confirmBox) {
      var cancelLink = confirmBox.querySelector("a, button.secondary, [data-cancel]");
      if (cancelLink) {
        refocus = true;
        cancelLink.click();
        say(words("not-played", "Not played."));
        return true;
      }
    }
    if (state.mode) {
      forget();
      show();
      if (document.activeElement && table() && table().contains(document.activeElement)) {
        document.activeElement.blur();
      }
      say(words("cancelled", "Cancelled."));
      return true;
    }
    return false;
  }

  // ---- Keys ---------------------------------------------------------------------------

  function typing(element) {
    if (!element || !element.closest) {
      return false;
    }
    return !!element.closest("input, textarea, select, [contenteditable]:not([contenteditable=false])");
  }

  // The element Enter already presses by itself (a button, a link...), if it has the focus.
  function activatable(element) {
    return (
      element &&
      element !== document.body &&
      element.closest &&
      element.closest("a[href], button, summary, [role=button], [tabindex]:not([tabindex='-1'])")
    );
  }

  function rankOf(event) {
    if (event.key.length === 1 && event.key >= "1" && event.key <= String(MAX_RANK)) {
      return parseInt(event.key, 10);
    }
    // Layouts where the digits need Shift (AZERTY): the key's place on the keyboard.
    var match = /^(?:Digit|Numpad)([1-9])$/.exec(event.code || "");
    if (match && parseInt(match[1], 10) <= MAX_RANK) {
      return parseInt(match[1], 10);
    }
    return null;
  }

  function onTurnPage(event) {
    var key = event.key;
    if (key === "Escape") {
      return cancel();
    }
    if (key === "Enter") {
      if (activatable(document.activeElement)) {
        return false; // the focused button or link takes it
      }
      var button = chosenButton();
      if (button) {
        button.click();
        return true;
      }
      if (state.mode === "play" || state.mode === "discard") {
        say(words("slot-first", "Press the card's slot number first, 1 to {count}.", { count: myCards().length }));
        return true;
      }
      if (state.mode === "clue") {
        say(words("rank-or-colour", "Press a rank, 1 to 5, or a colour: q w e r t y."));
        return true;
      }
      return false;
    }
    if (key === "a" || key === "+") {
      startAction("play");
      return true;
    }
    if (key === "d" || key === "-") {
      startAction("discard");
      return true;
    }
    if (key === ";") {
      nextTeammate();
      return true;
    }
    if ((key === "ArrowLeft" || key === "ArrowRight") && (state.mode === "play" || state.mode === "discard")) {
      moveCard(key === "ArrowLeft" ? -1 : 1);
      return true;
    }
    var colourAt = key.length === 1 ? COLOUR_KEYS.indexOf(key) : -1;
    if (colourAt >= 0) {
      chooseClue("colour", COLOURS[colourAt], colourWord(COLOURS[colourAt]));
      return true;
    }
    var rank = rankOf(event);
    if (rank !== null) {
      if (state.mode === "play" || state.mode === "discard") {
        if (!myTurn()) {
          notYourTurn();
        } else {
          chooseCard(rank);
        }
      } else {
        chooseClue("rank", String(rank), words("rank-clue", "{rank}s", { rank: rank }));
      }
      return true;
    }
    return false;
  }

  // The replay's links (templates/games/_replay_nav.html): data-nav, else rel, else words.
  var REPLAY_LINKS = {
    ArrowLeft: ["prev", /previous/i],
    ArrowRight: ["next", /next/i],
    Home: ["first", /first/i],
    End: ["last", /last/i],
  };

  function onReplay(event, nav) {
    var wanted = REPLAY_LINKS[event.key];
    if (!wanted) {
      return false;
    }
    var link = nav.querySelector('a[data-nav="' + wanted[0] + '"], a[rel="' + wanted[0] + '"]');
    if (!link) {
      Array.prototype.forEach.call(nav.querySelectorAll("a[href]"), function (each) {
        if (!link && wanted[1].test(each.textContent)) {
          link = each;
        }
      });
    }
    if (link && link.matches("a[href]")) {
      link.click();
    } else {
      say(
        event.key === "ArrowRight" || event.key === "End"
          ? words("last-turn", "This is the last turn.")
          : words("first-turn", "This is the first turn.")
      );
    }
    return true;
  }

  // ---- Empathy ------------------------------------------------------------------------

  var empathyShown = {}; // seat -> true: kept across htmx's swaps of the table

  function empathyHands() {
    return Array.prototype.filter.call(document.querySelectorAll(".hand"), function (section) {
      return section.querySelector("[data-empathy]");
    });
  }

  function showEmpathy(section, on) {
    section.classList.toggle("empathy-on", on);
    var button = section.querySelector("[data-empathy]");
    if (button) {
      button.setAttribute("aria-pressed", on ? "true" : "false");
    }
    empathyShown[section.getAttribute("data-seat")] = on;
  }

  function toggleEmpathy(section) {
    showEmpathy(section, !section.classList.contains("empathy-on"));
  }

  // The k key: every teammate's hand at once; again, back to the faces.
  function toggleAllEmpathy() {
    var hands = empathyHands();
    if (!hands.length) {
      return false;
    }
    var on = hands.some(function (section) {
      return !section.classList.contains("empathy-on");
    });
    hands.forEach(function (section) {
      showEmpathy(section, on);
    });
    say(
      on
        ? words("empathy-on", "Each teammate's cards show what they know of them.")
        : words("empathy-off", "The cards show their faces again.")
    );
    return true;
  }

  function restoreEmpathy() {
    empathyHands().forEach(function (section) {
      if (empathyShown[section.getAttribute("data-seat")]) {
        showEmpathy(section, true);
      }
    });
  }

  // A click on a teammate's cards, not on a control among them (a card's note, a clue).
  function empathyClick(event) {
    var button = event.target.closest("[data-empathy]");
    if (button) {
      toggleEmpathy(button.closest(".hand"));
      return true;
    }
    var cards = event.target.closest(".hand .cards");
    if (!cards || event.target.closest("a, button, summary, input, label, form, details[open]")) {
      return false;
    }
    var section = cards.closest(".hand");
    if (!section.querySelector("[data-empathy]")) {
      return false;
    }
    toggleEmpathy(section);
    return true;
  }

  // A card back's grid (a <details> over the table): one open at a time; a click elsewhere
  // or Escape closes it, as a popup would.
  function closeGrids(except) {
    var closed = false;
    document.querySelectorAll("details.card-back[open]").forEach(function (details) {
      if (details !== except) {
        details.open = false;
        closed = true;
      }
    });
    return closed;
  }

  // ---- The help -----------------------------------------------------------------------

  function help() {
    return document.getElementById("keys-help");
  }

  function openHelp() {
    var dialog = help();
    if (!dialog || dialog.open) {
      return;
    }
    lastFocus = document.activeElement;
    dialog.showModal();
  }

  function pageHasKeys() {
    return !!(table() || document.querySelector(".replay-nav"));
  }

  function showHelpButton() {
    var has = pageHasKeys();
    document.querySelectorAll("[data-keys-open]").forEach(function (button) {
      button.hidden = !has;
    });
  }

  document.addEventListener("click", function (event) {
    var opener = event.target.closest && event.target.closest("[data-keys-open]");
    if (opener) {
      openHelp();
      return;
    }
    if (event.target.closest) {
      closeGrids(event.target.closest("details.card-back"));
      if (empathyClick(event)) {
        return;
      }
    }
    var dialog = help();
    if (!dialog || !dialog.open) {
      return;
    }
    // The Close button, or a click on the backdrop (outside the dialog's box).
    if (event.target.closest("[data-keys-close]") || event.target === dialog) {
      dialog.close();
    }
  });

  document.addEventListener(
    "close",
    function (event) {
      if (event.target === help() && lastFocus && lastFocus.isConnected && lastFocus.focus) {
        lastFocus.focus();
      }
    },
    true
  );

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.ctrlKey || event.altKey || event.metaKey || event.isComposing) {
      return;
    }
    if (typing(event.target)) {
      return;
    }
    var dialog = help();
    if (dialog && dialog.open) {
      return; // the dialog's own keys: Escape closes it, Tab stays inside
    }
    if (event.key === "?") {
      if (pageHasKeys()) {
        openHelp();
        event.preventDefault();
      }
      return;
    }
    var handled = false;
    var nav = document.querySelector(".replay-nav");
    if (event.key === "Escape" && closeGrids(null)) {
      handled = true;
    } else if (event.key === "k" && toggleAllEmpathy()) {
      handled = true;
    } else if (nav) {
      handled = onReplay(event, nav);
    } else if (table()) {
      handled = onTurnPage(event);
    }
    if (handled) {
      event.preventDefault();
    }
  });

  // ---- After htmx replaced the table --------------------------------------------------

  document.addEventListener("htmx:beforeSwap", function () {
    var button = chosenButton();
    if (button && document.activeElement === button) {
      refocus = true;
    }
  });

  // A choice belongs to the turn it was made on: forgotten when the table shows another.
  function followTheTurnShown() {
    var turn = turnShown();
    if (turn !== state.turn) {
      state.turn = turn;
      state.target = null;
      forget();
      refocus = false;
    }
  }

  // At the swap, not only once it settles (htmx waits 20 ms): a key pressed in between
  // belongs to the new turn and must not be forgotten with the old one's choice.
  document.addEventListener("htmx:afterSwap", followTheTurnShown);

  document.addEventListener("htmx:afterSettle", function () {
    showHelpButton();
    restoreEmpathy();
    followTheTurnShown();
    var button = show();
    var focused = document.activeElement;
    if (refocus && button && (!focused || focused === document.body)) {
      focus(button);
    }
    refocus = false;
  });

  function start() {
    state.turn = turnShown();
    showHelpButton();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
