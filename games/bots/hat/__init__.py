"""The expert bot: a hat-guessing (information-strategy) player for all-bot tables.

Each clue carries a number: the sum, modulo the number of clues the giver can tell apart, of
every other player's *hat value* (the answers their hand gives to questions picked from public
knowledge: "which of your cards is playable?", "which of these groups of identities is this
card in?"). Each player sees every hand but their own, so works out their own answers from the
sum. This is the information strategy of Cox et al. ("How to Make the Perfect Fireworks
Display: Two Strategies for Hanabi", Mathematics Magazine, 2015) as Jeff Wu's hanabi.rs
refines it, written afresh here for this project's rules and every variant.

``choose_action(view)`` takes only ``games.engine.view_for(state, seat)`` for the seat to move;
public knowledge is rebuilt from the view's history.

| file | what it holds |
| --- | --- |
| ``board.py`` | the variant's constants, the board, card tables (identity -> weight) |
| ``questions.py`` | the questions a hand answers, packed into and out of a hat value |
| ``public.py`` | public knowledge: clue messages per variant, hat sums, replaying actions |
| ``rebuild.py`` | public knowledge from a seat's view (with a memo that only saves time) |
| ``decide.py`` | the choice of action |
| ``__main__.py`` | ``python -m games.bots.hat``: self-play scores and decision times |
"""

from .decide import choose_action as choose_action
