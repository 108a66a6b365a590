"""Level-1 H-Group positions, re-encoded from the H-Group documents (hanabi.github.io,
docs/beginner/ and docs/level-1.mdx) and from will-bot's level-1 tests
(WillFlame14/hanabi-bot, test/h-group/level-1*): the facts of each position (hands, who
clued what, what must be concluded or done), written for this project's engine. Purple is
white here. Where will-bot's position starts with another player to move, the names are
turned so that the same seats play the same roles and Alice moves first.
"""

from tests.bots.hgroup.positions import Position

XX = ["xx"] * 5
XX4 = ["xx"] * 4


# -- play clues (will-bot level-1/play-clues; docs: play clues, single card focus) ------------


def test_a_colour_clue_on_one_card_is_a_play_clue():
    p = Position([XX, ["g4", "r1", "b5", "p2", "y1"]])
    p.clue("Alice", "Bob", "red")
    assert p.inferred("Bob", "Bob", 2) == {"R1"}


def test_a_colour_clue_on_several_cards_focuses_the_leftmost_new_one():
    p = Position([XX, ["r1", "r4", "r3", "p2", "y1"]])
    p.clue("Alice", "Bob", "red")
    assert p.inferred("Bob", "Bob", 1) == {"R1"}


def test_a_colour_clue_that_touches_chop_focuses_chop():
    p = Position([XX, ["r3", "r4", "p2", "b5", "r1"]])
    p.clue("Alice", "Bob", "red")
    assert p.inferred("Bob", "Bob", 5) == {"R1"}


def test_a_colour_play_clue_on_a_partial_stack():
    p = Position([XX, ["p2", "b5", "r3", "y4", "y3"]], stacks={"r": 2})
    p.clue("Alice", "Bob", "red")
    assert p.inferred("Bob", "Bob", 3) == {"R3"}


def test_a_delayed_play_clue_through_someone_elses_clued_card():
    p = Position([XX, ["p2", "b5", "r2", "y4", "y3"], ["g1", "r1", "g4", "y2", "b2"]])
    p.clue("Alice", "Cathy", "red")  # Cathy's r1
    p.clue("Bob", "Alice", 4)
    p.clue("Cathy", "Alice", 4)
    p.clue("Alice", "Bob", "red")  # Bob's r2: delayed on Cathy's r1
    assert p.inferred("Bob", "Bob", 3) == {"R2"}


def test_a_self_connecting_colour_play_clue():
    p = Position([["b4", "w4", "g4", "y4", "b3"], ["r2", "r1", "b2", "p5", "y4"]])
    p.clue("Alice", "Bob", 1)  # Bob's r1 in slot 2
    p.clue("Bob", "Alice", 4)
    p.clue("Alice", "Bob", "red")  # r2 new, r1 re-touched
    assert p.inferred("Bob", "Bob", 1) == {"R2"}
    assert p.inferred("Bob", "Bob", 2) == {"R1"}


def test_a_rank_clue_on_playable_ones_plays_the_focus():
    p = Position([XX, ["b1", "r4", "g1", "y4", "w3"]])
    p.clue("Alice", "Bob", 1)
    assert p.action("Bob") == ("play", 1)


def test_a_play_clue_that_can_only_be_one_card_is_played():
    p = Position([["r1", "y4", "g4", "b4", "w4"], ["g4", "y3", "b4", "w3", "g3"]])
    p.clue("Alice", "Bob", 4)
    p.clue("Bob", "Alice", "red")
    assert p.action("Alice") == ("play", 1)


def test_it_gives_the_play_clue_that_touches_only_good_cards():
    # Cathy's r1 can be clued with 1 (touching it alone); red would focus the r3.
    p = Position([XX, ["g4", "r2", "r4", "p4", "y2"], ["r3", "b4", "r1", "y4", "b3"]])
    assert p.action("Alice") == ("clue", "Cathy", 1)


def test_it_does_not_play_a_card_it_does_not_know():
    p = Position([XX, ["g4", "r1", "b5", "p2", "y1"]])
    p.clue("Alice", "Bob", 4)  # g4 in slot 1: not playable, so not a play on anything known
    assert p.action("Bob")[0] != "play"


# -- save clues (docs: save clues, 5 save, 2 save, critical save; will-bot level-1) -----------


def test_a_5_clue_on_chop_is_a_5_save():
    p = Position([XX, ["r3", "g4", "y3", "w4", "b5"]])
    p.clue("Alice", "Bob", 5)
    assert p.inferred("Bob", "Bob", 5) == {"R5", "Y5", "G5", "B5", "W5"}
    assert p.action("Bob") not in (("play", 5), ("discard", 5))


def test_it_saves_a_5_on_the_next_players_chop_with_a_5_clue():
    p = Position([XX, ["r3", "g4", "y3", "w4", "b5"]])
    assert p.action("Alice") == ("clue", "Bob", 5)


def test_it_saves_a_2_on_chop_with_a_2_clue():
    p = Position([XX, ["r3", "g4", "b3", "w3", "y2"]])
    assert p.action("Alice") == ("clue", "Bob", 2)


def test_a_2_save_reads_as_any_2():
    # will-bot: "generates correct inferences for a 2 Save" (4 players).
    # Turned: will-bot's giver (Bob) is Alice here, will-bot's Alice (unseen cards) Bob.
    p = Position(
        [["r5", "r4", "b2", "y4"], XX4, ["g5", "b2", "g2", "y2"], ["y3", "g2", "y1", "b3"]]
    )
    p.clue("Alice", "Cathy", 2)  # Cathy's chop, y2: a 2 save
    assert p.inferred("Donald", "Cathy", 4) == {"R2", "Y2", "G2", "B2", "W2"}
    assert p.notes("Donald").notes[p.card("Cathy", 4)].focus == "save"


def test_no_finesse_is_read_into_a_2_save():
    # will-bot: "does not finesse from a 2 Save" (the names turned: the giver moves first).
    p = Position([["g5", "b4", "g1", "y2", "b3"], ["r5", "r4", "r2", "y4", "y2"], XX])
    p.clue("Alice", "Bob", 2)
    assert not p.finessed("Cathy", "Cathy", 1)
    assert len(p.inferred("Cathy", "Bob", 5)) > 1


def test_no_2_save_when_the_other_copy_is_visible():
    # will-bot: "does not give 2 Saves when a duplicate is visible".
    p = Position([XX, ["r5", "r4", "r2", "y4", "y2"], ["g5", "b4", "g1", "y2", "b3"]])
    assert p.action("Alice") != ("clue", "Bob", 2)


def test_it_saves_a_critical_card_touching_fewer_cards():
    # will-bot: "prefers touching less cards to save critical cards" (g4 discarded).
    p = Position([XX, ["b4", "g5", "p2", "p4", "g4"]], stacks={"r": 1}, discards=["g4"])
    assert p.action("Alice") == ("clue", "Bob", "green")


def test_a_colour_clue_on_a_chop_5_is_not_a_5_save():
    # docs: a colour clue on an unclued 5 is a play clue, not a save.
    p = Position([XX, ["r3", "g4", "y3", "w4", "b5"]], stacks={"b": 4})
    p.clue("Alice", "Bob", "blue")
    assert p.inferred("Bob", "Bob", 5) == {"B5"}
    assert p.action("Bob") == ("play", 5)


def test_a_clue_on_chop_that_may_be_a_play_or_a_save_is_not_played():
    # Red on chop with red at 0 and one r4 discarded: r1 (play) or r4 (critical save).
    p = Position([XX, ["g3", "y3", "b3", "w3", "r1"]], stacks={"y": 1}, discards=["r4"])
    p.clue("Alice", "Bob", "red")
    assert p.inferred("Bob", "Bob", 5) == {"R1", "R4"}
    assert p.action("Bob")[0] != "play" or p.action("Bob") != ("play", 5)


# -- good touch (will-bot level-1/good-touch-principle; docs: good touch principle) -----------


def test_it_does_not_touch_a_card_already_played():
    p = Position([XX, ["r1", "g1", "y4", "b4", "w4"]], stacks={"r": 1})
    assert p.action("Alice") == ("clue", "Bob", "green")


def test_it_does_not_touch_a_copy_of_a_clued_card():
    p = Position([XX, ["g4", "r1", "b3", "y4", "w3"], ["b4", "w4", "y3", "r1", "g3"]])
    p.clue("Alice", "Cathy", "red")  # Cathy's r1
    p.clue("Bob", "Alice", 4)
    p.clue("Cathy", "Alice", 4)
    assert p.action("Alice") != ("clue", "Bob", "red")
    assert p.action("Alice") != ("clue", "Bob", 1)


def test_good_touch_eliminates_from_the_focus_direct_play():
    # will-bot: "eliminates from focus correctly (direct play)" (the names turned).
    p = Position([["r5", "r4", "r2", "y4", "y2"], ["xx", "xx", "xx", "w1", "w5"]], stacks={"w": 4})
    p.clue("Alice", "Bob", "white")
    assert p.inferred("Bob", "Bob", 5) == {"W5"}
    assert p.live("Bob", 4) == set()  # known trash


def test_good_touch_eliminates_from_the_focus_direct_save():
    # will-bot: "eliminates from focus correctly (direct save)" (the names turned).
    p = Position(
        [["r5", "g3", "g3", "g5", "y2"], ["xx", "xx", "g1", "g2", "g4"]],
        stacks={"r": 1, "g": 2},  # r1: the setup's first card, clued alone to spend a token
        discards=["g4"],
    )
    p.clue("Alice", "Bob", "green")
    assert p.live("Bob", 5) == {"G4"}
    assert p.live("Bob", 3) == set() and p.live("Bob", 4) == set()


def test_plays_from_the_focus_of_a_2_clue_with_one_2_left():
    # will-bot: "plays from focus (no link)" (the names turned).
    p = Position(
        [["p1", "r2", "p4", "p3", "b1"], ["g2", "xx", "g2", "xx", "xx"]], stacks=[5, 5, 1, 5, 5]
    )
    p.clue("Alice", "Bob", 2)
    assert p.action("Bob") == ("play", 1)


def test_good_touch_holds_when_others_play_unknown_cards():
    # will-bot: "assumes good touch even when others are playing unknown cards".
    p = Position([["y3", "p2", "g4", "p1", "g2"], ["xx", "xx", "xx", "xx", "r1"]])
    p.clue("Alice", "Bob", 1)
    p.clue("Bob", "Alice", 1)
    p.play("Alice", 4)  # p1
    assert p.inferred("Bob", "Bob", 5) == {"R1", "Y1", "G1", "B1"}


# -- prompts and finesses (docs: beginner/prompt, beginner/finesse; level-1) ------------------


def test_a_prompt_plays_the_clued_card_that_connects():
    p = Position(
        [XX, ["r3", "g4", "b3", "w3", "y3"], ["xx", "xx", "xx", "xx", "r2"]],
        stacks={"r": 1},
        discards=["r4"],
    )
    p.clue("Alice", "Cathy", "red")  # Cathy's chop: r2 (play) or r4 (save)
    p.clue("Bob", "Alice", 4)
    p.clue("Cathy", "Alice", 4)
    p.clue("Alice", "Bob", "red")  # Bob's r3: Cathy's red card must be r2
    assert p.inferred("Cathy", "Cathy", 5) == {"R2"}
    p.discard("Bob", 5)
    assert p.action("Cathy") == ("play", 5)


def test_a_finesse_blind_plays_from_finesse_position():
    p = Position([XX, ["g4", "r2", "b3", "w3", "y3"], ["r1", "b4", "g3", "y4", "w4"]])
    p.clue("Alice", "Bob", "red")  # Bob's r2: Cathy's r1 in finesse position
    assert p.finessed("Cathy", "Cathy", 1)
    assert p.action("Bob")[0] != "play"  # r1 or r2: Bob waits for the finesse
    p.discard("Bob", 5)
    assert p.action("Cathy") == ("play", 1)
    p.play("Cathy", 1)
    assert p.inferred("Bob", "Bob", 3) == {"R2"}
    p.clue("Alice", "Bob", "red")  # a re-touch: nothing new
    assert p.action("Bob") == ("play", 3)


def test_without_the_blind_play_the_focus_is_the_direct_card():
    p = Position([XX, ["g4", "r1", "b3", "w3", "y3"], ["r1", "b4", "g3", "y4", "w4"]])
    p.clue("Alice", "Bob", "red")  # Bob's r1: Cathy sees it, no finesse
    assert not p.finessed("Cathy", "Cathy", 1)


def test_prompts_come_before_finesses():
    # Cathy holds a clued red card (r2) and r2 in finesse position... the clued one plays.
    p = Position(
        [XX, ["g4", "r3", "b3", "w3", "y3"], ["xx", "xx", "xx", "xx", "r2"]],
        stacks={"r": 1},
        discards=["r4"],
    )
    p.clue("Alice", "Cathy", "red")
    p.clue("Bob", "Alice", 4)
    p.clue("Cathy", "Alice", 4)
    p.clue("Alice", "Bob", "red")
    assert not p.finessed("Cathy", "Cathy", 1)


def test_it_gives_a_finesse_through_the_next_player():
    p = Position([XX, ["r1", "b4", "g3", "y4", "w4"], ["g4", "r2", "b3", "w3", "y3"]])
    p.clue("Alice", "Bob", 4)
    p.clue("Bob", "Alice", 4)
    p.clue("Cathy", "Alice", 4)
    action = p.action("Alice")
    assert action in (("clue", "Bob", "red"), ("clue", "Bob", 1), ("clue", "Cathy", "red"))


# -- the chop, discards, the early game (docs: chop, early game; will-bot level-1) -----------


def test_it_discards_its_chop_when_it_has_nothing_better():
    # Nothing Bob sees is worth a clue (Alice's cards are all trash, Cathy's r3 is clued).
    p = Position(
        [
            ["r1", "y1", "g1", "b2", "w2"],
            ["r4", "y4", "g4", "b4", "w4"],
            ["r3", "r1", "y1", "g2", "b1"],
        ],
        stacks=[2, 2, 2, 2, 2],
    )
    p.clue("Alice", "Cathy", 3)
    assert p.action("Bob") == ("discard", 5)


def test_in_the_early_game_it_clues_rather_than_discards():
    p = Position([XX, ["g4", "r2", "r4", "p4", "y2"], ["r3", "b4", "r1", "y4", "b3"]])
    p.clue("Alice", "Bob", 4)
    assert p.action("Bob")[0] == "clue"


def test_it_discards_known_trash_before_its_chop():
    # White on Bob's w1 and w5 with white at 4: w5 plays, the w1 is known trash.
    p = Position([["r5", "r4", "r2", "y4", "y3"], ["b3", "g3", "y3", "w1", "w5"]], stacks={"w": 4})
    p.clue("Alice", "Bob", "white")
    assert p.action("Bob") == ("play", 5)
    p.play("Bob", 5)
    p.clue("Alice", "Bob", 3)
    assert p.live("Bob", 5) == set()
    assert p.action("Bob") == ("discard", 5)  # the w1, not the chop (slot 4)


# -- safety: a giver whose clue misled is read for its facts ----------------------------------


def test_a_giver_whose_clue_misled_is_read_literally_afterwards():
    # Alice's red clue touches Bob's r3 (slot 1, the focus) and r1: not the H-Group way.
    p = Position([XX, ["r3", "g4", "b4", "r1", "y4"]])
    p.clue("Alice", "Bob", "red")
    assert p.inferred("Bob", "Bob", 1) == {"R1"}
    p.play("Bob", 1)  # the r3: a misplay
    assert p.seat("Alice") in p.notes("Bob").literal
    p.clue("Alice", "Bob", "blue")  # the b4: read for what it shows, not as a b1
    assert p.inferred("Bob", "Bob", 3) == {"B1", "B2", "B3", "B4", "B5"}
    assert p.action("Bob")[0] != "play"


# -- more from the beginner's guide (docs/beginner/prompt, finesse, delayed-play-clues) -------


def test_doc_prompt_an_unknown_red_card_is_prompted_as_the_connecting_card():
    # Bob's red card is unknown (touched beside a red 2 he played); red to Cathy's red 4.
    p = Position(
        [XX, ["r2", "g4", "r3", "y4", "b3"], ["g3", "r4", "w3", "y3", "b4"]], stacks={"r": 1}
    )
    p.clue("Alice", "Bob", "red")  # focus r2 (slot 1), r3 touched beside it
    p.play("Bob", 1)
    p.clue("Cathy", "Alice", 4)
    p.clue("Alice", "Cathy", "red")  # r4: Bob's red card must be the r3
    assert p.inferred("Bob", "Bob", 3) == {"R3"}
    assert p.action("Bob") == ("play", 3)


def test_doc_finesse_bob_blind_plays_and_cathy_then_plays_the_red_4():
    p = Position(
        [XX, ["r3", "g4", "b3", "y4", "w3"], ["g3", "r4", "w4", "y3", "b4"]], stacks={"r": 2}
    )
    p.clue("Alice", "Cathy", "red")
    assert p.action("Bob") == ("play", 1)
    p.play("Bob", 1)
    assert p.action("Cathy") == ("play", 2)


def test_doc_finesse_position_moves_past_clued_cards():
    # 4 players: Cathy's slots 1 and 2 are clued red; Bob's blue clue to Donald's b2 finesses
    # Cathy's finesse position, now slot 3 (her b1).
    p = Position(
        [
            XX4,
            ["g4", "y3", "w4", "y4"],
            ["r1", "r3", "b1", "g3"],
            ["b2", "w3", "g4", "y3"],
        ]
    )
    p.clue("Alice", "Cathy", "red")
    p.clue("Bob", "Donald", "blue")
    assert p.finessed("Cathy", "Cathy", 3)
    assert p.action("Cathy") == ("play", 3)


def test_doc_a_2_clue_may_be_a_delayed_play_through_the_clued_1s():
    # Cathy holds clued 1s; Alice clues 2 to Bob: red 2 plays now, but it may be a 2 that
    # waits for Cathy's 1s, so Bob does not play it yet.
    p = Position(
        [XX, ["g4", "y4", "w3", "g2", "b4"], ["g1", "b1", "w4", "y3", "g3"]], stacks={"r": 1}
    )
    p.clue("Alice", "Cathy", 1)
    p.clue("Bob", "Alice", 4)
    p.clue("Cathy", "Alice", 4)
    p.clue("Alice", "Bob", 2)
    assert {"R2", "G2", "B2"} <= p.inferred("Bob", "Bob", 4)
    assert p.action("Bob") != ("play", 4)


def test_a_finesse_seen_elsewhere_is_not_read_as_a_prompt_on_an_unseen_card():
    # will-bot (level-1/special-moves, 4 players), turned so that its Bob is Alice here: a 1
    # clue to Donald's slot 4, then red to Alice's r2 finesses Cathy's r1, which Donald sees:
    # his 1 is still any 1 (he waits for Cathy, who sees it, rather than play it as the r1).
    p = Position(
        [
            ["r2", "b3", "w1", "g4"],
            ["r5", "w4", "r4", "b2"],
            ["r1", "g5", "w2", "w4"],
            ["y4", "b4", "g4", "y1"],
        ]
    )
    p.clue("Alice", "Donald", 1)
    p.clue("Bob", "Alice", "red")
    assert p.inferred("Donald", "Donald", 4) == {"R1", "Y1", "G1", "B1", "W1"}
    assert p.finessed("Donald", "Cathy", 1)
    assert p.finessed("Cathy", "Cathy", 1)
    assert p.action("Cathy") == ("play", 1)


def test_a_colour_clue_on_a_chop_2_is_a_play_clue():
    # docs (level-1, the 2 save): a 2 is saved with a 2 clue; a colour clue on it is a play.
    p = Position([XX, ["r3", "g4", "b3", "w3", "y2"]])
    p.clue("Alice", "Bob", "yellow")
    assert p.inferred("Bob", "Bob", 5) == {"Y1"}


def test_a_rank_clue_touching_the_chop_focuses_the_chop():
    # docs (clue focus): two new cards, one on chop: the chop is the focus, here a 2 save.
    p = Position([XX, ["r2", "g4", "b3", "w3", "y2"]])
    p.clue("Alice", "Bob", 2)
    notes = p.notes("Bob")
    assert notes.notes[p.card("Bob", 5)].focus == "save"
    assert notes.notes[p.card("Bob", 1)].focus is None
    assert p.action("Bob")[0] != "play"
