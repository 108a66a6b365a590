"""Hat values: the questions each player's hand answers, and how answers become one number.

A clue carries a number modulo the count of clues the giver could tell apart (``total``).
For each other player, the giver asks a sequence of questions about that player's hand, chosen
from public knowledge alone, packs the answers into a number below ``total`` (the player's
*hat value*) and clues the sum of all hat values. Every other player sees every hat but their
own, so subtracts the others from the sum and unpacks their own answers: the same questions,
asked in the same order, from the same public knowledge.

The packing is mixed radix: each answer takes the room its question needs while room is left
(``room_left``), and the unpacking splits the number back in the same order (``split``), so
both sides always ask the same next question with the same room.
"""

from __future__ import annotations

from .board import Board, Table, chance_of, chances, restrict

# A card whose chance of being playable is within this of the target gets a yes/no question
# when the player already knows something to do (both figures from the information strategy
# of Cox et al. as hanabi.rs tunes it).
ASK_PLAY_TARGET = 0.7
ASK_PLAY_WIDTH = 0.2


class Question:
    amount: int

    def answer(self, idents: list[int]) -> int:
        raise NotImplementedError

    def learn(self, value: int, tables: list[Table]) -> None:
        raise NotImplementedError


class HasProperty(Question):
    """Is card ``index`` one of the flagged identities (playable, or dead)? 1 yes, 0 no."""

    __slots__ = ("index", "flags")
    amount = 2

    def __init__(self, index: int, flags: list[bool]) -> None:
        self.index = index
        self.flags = flags

    def answer(self, idents: list[int]) -> int:
        return 1 if self.flags[idents[self.index]] else 0

    def learn(self, value: int, tables: list[Table]) -> None:
        flags = self.flags
        want = value == 1
        tables[self.index] = restrict(tables[self.index], lambda i: flags[i] == want)


class FirstYes(Question):
    """Which of these yes/no questions is the first answered yes (1-based), 0 if none."""

    __slots__ = ("questions", "amount")

    def __init__(self, questions: list[HasProperty]) -> None:
        self.questions = questions
        self.amount = len(questions) + 1

    def answer(self, idents: list[int]) -> int:
        for n, question in enumerate(self.questions, start=1):
            if question.answer(idents):
                return n
        return 0

    def learn(self, value: int, tables: list[Table]) -> None:
        for n, question in enumerate(self.questions, start=1):
            if n == value:
                question.learn(1, tables)
                return
            question.learn(0, tables)


class Partition(Question):
    """Which block of a partition of card ``index``'s identities holds it: the live
    identities dealt round-robin over the blocks, the dead ones together in a last block."""

    __slots__ = ("index", "block", "amount")

    def __init__(self, index: int, room: int, table: Table, board: Board) -> None:
        dead = board.dead
        idents = sorted(table)
        has_dead = any(dead[i] for i in idents)
        blocks = room - 1 if has_dead else room
        block: dict[int, int] = {}
        used = 0
        for ident in idents:
            if not dead[ident]:
                block[ident] = used % blocks
                used += 1
        count = min(used, blocks)
        if has_dead:
            for ident in idents:
                if dead[ident]:
                    block[ident] = count
            count += 1
        self.index = index
        self.block = block
        self.amount = count

    def answer(self, idents: list[int]) -> int:
        # An identity the public table has ruled out (only after a partner's mistake) answers
        # 0 rather than failing: every player still computes the same number.
        return self.block.get(idents[self.index], 0)

    def learn(self, value: int, tables: list[Table]) -> None:
        block = self.block
        tables[self.index] = restrict(tables[self.index], lambda i: block.get(i) == value)


def next_question(tables: list[Table], board: Board, room: int) -> Question | None:
    """The next question about a hand whose public tables are ``tables``, with ``room``
    answers left to spend (at least 2), or None when nothing is worth asking."""
    facts = []
    know_play = know_dead = False
    for index, table in enumerate(tables):
        p_play, p_dead = chances(table, board)
        if p_play == 1.0:
            know_play = True
        if p_dead == 1.0:
            know_dead = True
        elif len(table) > 1:
            facts.append((index, p_play, p_dead))
    if not know_play:
        # Find a playable card first: ask of each card in turn whether it is playable (and,
        # when no card is known dead, whether it is dead, then whether it is the last copy of
        # a card still needed), packed as "the first yes".
        asks = [(0, p_play, index) for index, p_play, _ in facts if p_play > 0.0]
        if not know_dead:
            asks += [(1, p_dead, index) for index, _, p_dead in facts if p_dead > 0.0]
            # (Asking for the last copies keeps play until perfect from losing a card.)
            for index, _, _ in facts:
                p_critical = chance_of(tables[index], board.critical)
                if p_critical > 0.0:
                    asks.append((2, p_critical, index))
        if len(asks) > room - 1:
            asks.sort(key=lambda a: (a[0], -a[1]))
            del asks[room - 1 :]
        if asks:
            # The least likely first: a yes then also says no of the cards before it.
            asks.sort(key=lambda a: (a[0], a[1]))
            flags = (board.playable, board.dead, board.critical)
            return FirstYes([HasProperty(index, flags[kind]) for kind, _, index in asks])
    near = [
        (abs(p_play - ASK_PLAY_TARGET), index)
        for index, p_play, _ in facts
        if abs(p_play - ASK_PLAY_TARGET) < ASK_PLAY_WIDTH
    ]
    if near:
        return HasProperty(min(near)[1], board.playable)
    if facts:
        index = min(facts, key=lambda f: (f[2], f[0]))[0]
        return Partition(index, room, tables[index], board)
    return None


# -- packing answers into one number ---------------------------------------------------------


def room_left(value: int, modulus: int, total: int) -> int:
    """The largest answer count ``n`` such that any answer below ``n`` still packs into a
    number below ``total``: ``value + modulus * (n - 1) < total``."""
    return (total - value - 1) // modulus + 1


def hat_value(tables: list[Table], idents: list[int], board: Board, total: int) -> int:
    """The hat value of a hand (its identities ``idents``) below ``total``; ``tables`` (the
    hand's public tables, a list the caller owns) learn the answers as the holder will."""
    value, modulus = 0, 1
    while True:
        room = room_left(value, modulus, total)
        if room <= 1:
            break
        question = next_question(tables, board, room)
        if question is None:
            break
        answer = question.answer(idents)
        question.learn(answer, tables)
        value += modulus * answer
        modulus = min(total, modulus * question.amount)
    return value


def learn_hat_value(tables: list[Table], board: Board, value: int, total: int) -> None:
    """The holder's side of ``hat_value``: unpack ``value`` (below ``total``) into answers."""
    modulus = total
    while modulus > 1:
        question = next_question(tables, board, modulus)
        if question is None:
            break
        amount = question.amount
        answer = value % amount
        value //= amount
        modulus = (modulus - answer - 1) // amount + 1
        question.learn(answer, tables)
