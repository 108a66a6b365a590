"""Games, their seats, moves and chat, invitations, imported replays and deal analyses.

A game's state is never stored: the engine rebuilds it from (options, seed, moves). What
is stored on Game is a summary (turn, whose turn, score, …) so that list pages are cheap.
"""

import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.urls import reverse

from games.engine import GameOptions, GameState, end_text, rating_word, replay
from games.errors import GameError


def new_seed() -> int:
    """A random 63-bit seed: fits a signed 64-bit column on every database."""
    return secrets.randbits(63)


def new_invite_code() -> str:
    return secrets.token_urlsafe(12)


TIME_LIMITS = [
    (12, "12 hours"),
    (24, "24 hours"),
    (48, "48 hours"),
    (72, "72 hours"),
    (168, "7 days"),
]


class TimeoutPolicy(models.TextChoices):
    AUTO_MOVE = "auto_move", "A bot makes the move for the absent player"
    END_GAME = "end_game", "The game ends, timed out (score 0)"


class BotKind(models.TextChoices):
    """Which bot sits in a bot seat. Only the house bot ever moves for a person (a player
    whose time ran out): the expert bot's clues mean nothing to people, and the H-Group bot
    plays at a level someone chose for the table (Seat.bot_level)."""

    HOUSE = "house", "House bot: plays with people, adapts to how they clue"
    EXPERT = "expert", "Expert bot (hat guessing): for bots only, people cannot read its clues"
    HGROUP = "hgroup", "H-Group bot: plays by the H-Group conventions, at a level"


class ChatPolicy(models.TextChoices):
    AFTER = "after", "Only after the game ends (the rules forbid table talk)"
    DURING = "during", "During the game too"


class SpectatorPolicy(models.TextChoices):
    """Who, besides its players, may look at a game (games/spectators.py holds the rules)."""

    NOBODY = "nobody", "Nobody: the game and its replay stay with the people at the table"
    AFTER = "after", "After the game: a public game's replay is open to everyone"
    DURING = "during", "During the game too: anyone may watch every hand, and never take a seat"


class GameQuerySet(models.QuerySet):
    def locked(self, game_id: int) -> "Game":
        """The game, locked until the transaction ends (call inside transaction.atomic):
        two requests about one game are applied one after the other, never both."""
        try:
            return self.select_for_update().get(pk=game_id)
        except self.model.DoesNotExist:
            raise GameError("There is no such game.") from None

    def waiting_on(self, user) -> "GameQuerySet":
        """Games in play whose current turn is this person's (not a bot's in their seat)."""
        return self.filter(
            status=Game.Status.PLAYING,
            seats__user=user,
            seats__is_bot=False,
            seats__position=F("current_seat"),
        ).order_by("turn_deadline", "pk")


REARRANGE_KEYS = ("seat", "card_id", "slot")


class Game(models.Model):
    TIMED_OUT = "timed_out"  # the `end` of a game ended by its timeout policy

    class Status(models.TextChoices):
        OPEN = "open", "waiting for players"
        PLAYING = "playing", "playing"
        FINISHED = "finished", "finished"
        ABORTED = "aborted", "aborted"

    class Visibility(models.TextChoices):
        PUBLIC = "public", "open in the lobby"
        INVITE = "invite", "by invitation only"

    options = models.JSONField(help_text="The engine's GameOptions.to_dict().")
    # Copied from options on save, so that moderators filter on indexed columns.
    player_count = models.PositiveSmallIntegerField("players", default=0, editable=False)
    variant = models.CharField(max_length=80, blank=True, editable=False)
    seed = models.BigIntegerField(default=new_seed)
    deck = models.JSONField(
        null=True,
        blank=True,
        help_text="An explicit deck as [[suit, rank], …]; null: the deck comes from the seed.",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.INVITE
    )
    invite_code = models.CharField(max_length=32, default=new_invite_code)
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_games"
    )
    # The summary, written by services after every change.
    turn = models.PositiveIntegerField(default=0, help_text="Moves made so far.")
    current_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    score = models.PositiveSmallIntegerField(default=0)
    max_score = models.PositiveSmallIntegerField(default=25)
    end = models.CharField(max_length=20, blank=True, help_text="How the game ended.")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Deadlines: the limit is chosen at creation; the deadline of the current turn is
    # stored so that the sweep finds overdue games through an index.
    turn_time_limit = models.PositiveSmallIntegerField(
        null=True, blank=True, choices=TIME_LIMITS, help_text="Hours per turn; empty: no limit."
    )
    timeout_policy = models.CharField(
        max_length=10, choices=TimeoutPolicy.choices, default=TimeoutPolicy.AUTO_MOVE
    )
    turn_started_at = models.DateTimeField(null=True, blank=True)
    turn_deadline = models.DateTimeField(null=True, blank=True)
    paused_at = models.DateTimeField(null=True, blank=True)
    chat_policy = models.CharField(
        max_length=10, choices=ChatPolicy.choices, default=ChatPolicy.AFTER
    )
    # Before this option nobody could watch a game being played, and a finished public game's
    # replay was open to everyone (games/views/access.py): that is AFTER, so it is the
    # default, which every game created before the option keeps.
    spectators = models.CharField(
        max_length=10, choices=SpectatorPolicy.choices, default=SpectatorPolicy.AFTER
    )
    # Raised by every change to what a page of the game shows (a move, chat, the clock,
    # seats, a moderator's action), in the change's transaction: games/services/versions.py.
    version = models.PositiveIntegerField(default=0, editable=False)
    # The free rearrangements of hands (the option "rearrange"), in order, each the engine's
    # action dict with the turn it was made in: {"turn", "seat", "card_id", "slot"}. On the
    # game's row, not as moves: a move is one per turn, and a rearrangement takes none.
    rearrangements = models.JSONField(default=list, blank=True, editable=False)

    objects = GameQuerySet.as_manager()

    class Meta:
        permissions = [("moderate_game", "Can moderate games, chat and reports")]
        indexes = [
            models.Index(
                fields=["turn_deadline"],
                name="game_overdue",
                condition=Q(status="playing", turn_deadline__isnull=False),
            ),
            models.Index(
                fields=["-created_at"],
                name="game_open_public",
                condition=Q(status="open", visibility="public"),
            ),
            models.Index(fields=["status", "-finished_at"], name="game_status_finished"),
            # The moderators' filters and default order in the admin.
            models.Index(fields=["-created_at"], name="game_created"),
            models.Index(fields=["variant", "-created_at"], name="game_variant"),
            models.Index(fields=["player_count", "-created_at"], name="game_player_count"),
            models.Index(
                fields=["turn_started_at"],
                name="game_waiting_for_move",
                condition=Q(status="playing"),
            ),
        ]

    def __str__(self) -> str:
        return f"Game {self.pk} ({self.game_options.describe()})"

    def save(self, *args, **kwargs) -> None:
        options = self.game_options
        self.player_count, self.variant = options.players, options.variant_name()
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("games:detail", args=[self.pk])

    @property
    def game_options(self) -> GameOptions:
        return GameOptions.from_dict(self.options)

    @property
    def deck_source(self) -> int | list:
        """What the engine deals from: the explicit deck if there is one, else the seed."""
        return self.deck if self.deck is not None else self.seed

    def load_state(self, moves: list["Move"] | None = None) -> GameState:
        """The engine's state of a started game, rebuilt from its options, deck and moves
        (read as their actions alone, without Move instances, when not given)."""
        if moves is None:
            actions = list(self.moves.order_by("turn").values_list("action", flat=True))
        else:
            actions = [move.action for move in moves]
        return replay(self.game_options, self.deck_source, self.with_rearrangements(actions))

    def with_rearrangements(self, move_actions: list[dict]) -> list[dict]:
        """The moves' actions (in turn order) with the game's free rearrangements where
        they were made, each before the move of its turn: the engine's whole action list."""
        if not self.rearrangements:
            return list(move_actions)
        merged: list[dict] = []
        pending = sorted(self.rearrangements, key=lambda item: item["turn"])  # stable
        index = 0
        for turn, action in enumerate([*move_actions, None]):
            while index < len(pending) and pending[index]["turn"] <= turn:
                item = pending[index]
                merged.append({"type": "rearrange", **{k: item[k] for k in REARRANGE_KEYS}})
                index += 1
            if action is not None:
                merged.append(action)
        return merged

    def seat_names(self) -> list[str]:
        """Display names by seat position."""
        return [seat.name for seat in self.seats.select_related("user").order_by("position")]

    def seat_of(self, user) -> "Seat | None":
        if not user.is_authenticated:
            return None
        return self.seats.filter(user=user).first()

    def outcome(self, state: GameState) -> dict:
        """The final score, its rating word and how the game ended, in words. A game ended
        by its timeout policy ends in a way the rules do not know, and scores 0."""
        return outcome(state, self.end)

    def deadline_from(self, start: datetime) -> datetime | None:
        """When a turn starting at `start` must be played by (none when paused or untimed)."""
        if not self.turn_time_limit or self.is_paused():
            return None
        return start + timedelta(hours=self.turn_time_limit)

    def is_open(self) -> bool:
        return self.status == self.Status.OPEN

    def is_playing(self) -> bool:
        return self.status == self.Status.PLAYING

    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    def is_paused(self) -> bool:
        return self.paused_at is not None

    def chat_open(self) -> bool:
        """Whether players may write now: before the start, after the end, or during play
        when the game allows table talk."""
        if self.status == self.Status.PLAYING:
            return self.chat_policy == ChatPolicy.DURING
        return True


def outcome(state: GameState, end: str = "") -> dict:
    """The final score, its rating word and how the game ended, in words. `end` is the
    recorded ending, which may be one the rules do not know (a timeout: it scores 0)."""
    if end == Game.TIMED_OUT:
        score, text = 0, "Time ran out on a turn, and the game ended: it scores 0."
    else:
        score, text = state.score, end_text(state)
    return {
        "score": score,
        "max_score": state.max_score,
        "rating": rating_word(score, state.options),
        "text": text,
    }


class Seat(models.Model):
    """A place at the table. Before the start, `position` is the joining order; the start
    shuffles the players into their final positions (seat 0 moves first)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
    )
    is_bot = models.BooleanField(
        default=False, help_text="A bot plays this seat (a player who timed out too often)."
    )
    bot_kind = models.CharField(
        max_length=10,
        choices=BotKind.choices,
        default=BotKind.HOUSE,
        help_text="Which bot plays a seat that no person holds (games/services/play.py).",
    )
    bot_level = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="The H-Group bot's level (games.bots.hgroup.LEVELS), chosen when seating it; "
        "null for the other kinds.",
    )
    timeouts_in_a_row = models.PositiveSmallIntegerField(default=0)
    wants_pause = models.BooleanField(default=False)
    muted = models.BooleanField(default=False, help_text="No emails about this game.")
    last_seen_at = models.DateTimeField(
        null=True, blank=True, help_text="When the player's open game page last polled."
    )
    former_users = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="former_seats",
        help_text="Everyone who held this seat before its player (moderation's replace_seat), "
        "kept so that a moderator who once played it cannot see its hands while the game is "
        "played (games/permissions.py).",
    )
    notes = models.JSONField(
        default=dict,
        blank=True,
        help_text="The player's private notes on cards: {card id: text} "
        "(games/services/notes.py). Shown to everyone in the finished game's replay.",
    )

    class Meta:
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_unique_position"),
            models.UniqueConstraint(
                fields=["game", "user"], name="seat_unique_user", condition=Q(user__isnull=False)
            ),
        ]

    def __str__(self) -> str:
        return f"seat {self.position + 1} of game {self.game_id}: {self.name}"

    @property
    def is_free(self) -> bool:
        """Nobody sits here yet, neither a person nor a bot."""
        return self.user_id is None and not self.is_bot

    @property
    def name(self) -> str:
        if not self.user_id:
            if not self.is_bot:
                return "(empty)"
            if self.bot_kind == BotKind.HGROUP:
                return f"H-Group bot {self.position + 1} (level {self.bot_level})"
            kind = "Expert bot" if self.bot_kind == BotKind.EXPERT else "Bot"
            return f"{kind} {self.position + 1}"
        return f"{self.user.display_name} (bot)" if self.is_bot else self.user.display_name


class MadeBy(models.TextChoices):
    PLAYER = "player", "the player"
    TIMEOUT = "timeout", "an automatic move: the player's time ran out"
    BOT = "bot", "a bot"


class Spectator(models.Model):
    """Someone who watched a game while it was played (games/spectators.py), every hand face
    up: they may never take a seat at it, nor at another table dealt the same cards."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="spectator_records")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="spectated"
    )
    first_seen_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="spectator_unique_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user} watched game {self.game_id}"


class Move(models.Model):
    """One action, append-only. (game, turn) is unique: exactly one move per turn."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    turn = models.PositiveIntegerField(help_text="0 for the first move of the game.")
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField(help_text="The engine's action_to_dict().")
    made_by = models.CharField(max_length=10, choices=MadeBy.choices, default=MadeBy.PLAYER)
    safe_reading = models.JSONField(
        null=True,
        blank=True,
        help_text="Where the H-Group bot that made this move took the safe reading of a card "
        "of its own (games/bots/hgroup/safe.py: slot, clue's turn and giver, kind, the seats "
        "it waits on); worded in the history by games/safe_words.py. Null for other moves.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "turn"]
        constraints = [
            models.UniqueConstraint(fields=["game", "turn"], name="move_unique_turn"),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} turn {self.turn}: {self.action}"


class ChatMessage(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    text = models.CharField(max_length=500)
    created_at = models.DateTimeField(auto_now_add=True)
    hidden_at = models.DateTimeField(null=True, blank=True, help_text="Hidden by a moderator.")

    class Meta:
        ordering = ["game", "created_at", "pk"]
        indexes = [models.Index(fields=["game", "created_at"], name="chat_by_game")]

    def __str__(self) -> str:
        return f"{self.author} in game {self.game_id}: {self.text[:40]}"


class Invitation(models.Model):
    """An invitation sent by email; the email carries the game's invite link."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField()
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    # Chosen among the inviter's friends and partners (friends/), who are shown by name; an
    # address typed by hand is shown as typed, so that it never tells whether it has an
    # account.
    by_name = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "email"], name="invitation_unique_email"),
        ]

    def __str__(self) -> str:
        return f"{self.email} to game {self.game_id}"


class ImportedReplay(models.Model):
    """A game imported from a hanab.live JSON file, kept to be watched as a replay."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="imported_replays"
    )
    options = models.JSONField()
    deck = models.JSONField(help_text="[[suit, rank], …], top of the deck first.")
    actions = models.JSONField(help_text="The engine's action dicts.")
    player_names = models.JSONField()
    file_name = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"imported replay {self.pk} ({', '.join(self.player_names)})"


class DealAnalysis(models.Model):
    """What a team that saw every card could have made of a finished game's deal, computed
    once by a worker after the game ends (games/analysis/deal.py gives the result's shape)."""

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="deal_analysis"
    )
    result = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "deal analyses"

    def __str__(self) -> str:
        return f"analysis of game {self.game_id}"


class TurnAnalysis(models.Model):
    """What a team that saw every card could still have reached at the start of each turn of
    a finished game, and the line where a move lost points (games/analysis/turns.py gives
    the result's shape): computed once by the worker beside the deal's analysis
    (games/hindsight.py), read by the review (games/review.py)."""

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="turn_analysis"
    )
    result = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "turn analyses"

    def __str__(self) -> str:
        return f"turn analysis of game {self.game_id}"
