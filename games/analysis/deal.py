"""The hindsight analysis of a real deal, shown on a finished game's page.

Two answers to "could this deal have been won?":

* the paper's verdict: the deck read as a SOLITAIRE HANABI instance (section 1.3) with
  hand size h = the table's total hand capacity, decided exactly by ``search.solve``. It is
  the paper's simplified model: one player, no clues, no turns, no fuses, so it is a
  relaxation of the real game (a deal the model cannot win, no team can win);
* the best score a team that saw every card could have reached in the real game, with its
  clue tokens, turn order and hand sizes (``team.analyse_deal``): exact, or "at least X, at
  most Y" when the time limit ends the search first.
"""

from __future__ import annotations

from collections.abc import Sequence
from time import perf_counter

from games.engine import GameOptions
from games.engine.cards import Card

from . import search, team
from .solitaire import Instance

FORMAT = 1  # bump when the stored result's shape changes


def solitaire_instance(options: GameOptions, deck: Sequence[Card]) -> Instance:
    """The deck in the paper's terms: card (rank, suit + 1), h = every hand's capacity."""
    cards = tuple((card.rank, card.suit + 1) for card in deck)
    return Instance(cards, h=options.players * options.hand_size, n=5, c=options.num_suits)


def solitaire_verdict(options: GameOptions, deck: Sequence[Card]) -> dict:
    instance = solitaire_instance(options, deck)
    started = perf_counter()
    result = search.solve(instance)
    return {
        "winnable": result.winnable,
        "h": instance.h,
        "n": instance.n,
        "c": instance.c,
        "r": instance.r,
        "N": instance.N,
        "nodes": result.nodes,
        "seconds": round(perf_counter() - started, 4),
    }


def analyse(options: GameOptions, deck: Sequence[Card], time_limit: float = 10.0) -> dict:
    """Both answers as JSON-able data."""
    return {
        "format": FORMAT,
        "max_score": options.max_score,
        "solitaire": solitaire_verdict(options, deck),
        "team": team.analyse_deal(options, deck, time_limit=time_limit).to_dict(),
    }
