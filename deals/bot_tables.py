"""Tables of bots only play a shared deal, in memory on a worker, so that its page can say
what the house bot and the expert bot make of it (an outbox row per bot kind)."""

from deals import outbox_kinds
from deals.models import Deal, DealBotScore
from games.bots import choose_action, hat
from games.engine import GameOptions, new_game, view_for
from games.models import BotKind
from outbox.models import Outbox
from outbox.registry import handler


def play_with_bots(options: GameOptions, deck: list, kind: str) -> tuple[int, str]:
    """The score and ending of a game of `kind` bots in every seat on this deck. Each bot sees
    only its seat's view; the house bot is told every seat is a bot, so that it reads its
    partners' clues by its conventions from the first move and searches the endgame, as it
    does at a table of bots."""
    state = new_game(options, deck=deck)
    every_seat = list(range(options.players))
    while not state.is_over:
        view = view_for(state, state.current_seat)
        if kind == BotKind.EXPERT:
            action = hat.choose_action(view)
        else:
            action = choose_action(view, every_seat)
        state.apply(action)
    return state.score, str(state.end)


@handler(outbox_kinds.BOT_TABLE)
def play_deal_with_bots(row: Outbox) -> None:
    deal = Deal.objects.get(pk=row.payload["deal"])
    kind = row.payload["bot_kind"]
    if DealBotScore.objects.filter(deal=deal, bot_kind=kind).exists():
        return  # played already: the row ran twice
    score, end = play_with_bots(deal.game_options, deal.deck, kind)
    DealBotScore.objects.get_or_create(
        deal=deal, bot_kind=kind, defaults={"score": score, "end": end}
    )
