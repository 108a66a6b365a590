"""The cautious move made for a player whose time ran out.

It reads only the seat's view (`games.engine.view_for`), so it cannot use hidden cards:
discard the oldest card that carries no clue, if discarding is allowed; otherwise give a
clue that touches a card someone can play now; otherwise play the newest clued card;
and if none of those exists, the first clue offered, or the newest card.
"""

from games.engine import Action, Clue, Discard, Play


def _playable(card: dict, view: dict) -> bool:
    heights = {firework["suit"]: firework["height"] for firework in view["fireworks"]}
    return card["rank"] == heights[card["suit"]] + 1


def cautious_action(view: dict) -> Action:
    legal = view["legal"]
    if legal is None:
        raise ValueError("it is not this seat's turn")
    hand = next(hand for hand in view["hands"] if hand["seat"] == view["viewer"])["cards"]

    if legal["discard"]:
        unclued = [card for card in hand if not card["clued"]]
        if unclued:
            return Discard(unclued[-1]["id"])  # the last slot holds the oldest card

    cards_by_id = {
        card["id"]: card
        for other in view["hands"]
        if other["seat"] != view["viewer"]
        for card in other["cards"]
    }
    for clue in legal["clues"]:
        if any(_playable(cards_by_id[card_id], view) for card_id in clue["touches"]):
            return Clue(clue["target"], colour=clue.get("colour"), rank=clue.get("rank"))

    clued = [card for card in hand if card["clued"]]
    if clued:
        return Play(clued[0]["id"])  # slot 1 is the newest card
    if legal["clues"]:
        clue = legal["clues"][0]
        return Clue(clue["target"], colour=clue.get("colour"), rank=clue.get("rank"))
    if legal["discard"]:
        return Discard(hand[-1]["id"])
    return Play(hand[0]["id"])
