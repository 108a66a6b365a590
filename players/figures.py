"""A profile's figures, read from the stored aggregates: a constant number of queries,
however many games the player has finished."""

from dataclasses import dataclass

from accounts.models import User
from games.engine.options import NO_VARIANT
from players.models import PartnerStats, VariantStats

TABLE_SIZES = range(2, 7)
FREQUENT_PARTNERS = 10


@dataclass
class Totals:
    played: int = 0
    won: int = 0
    total_score: int = 0
    best_score: int | None = None
    perfect: int = 0
    strikeouts: int = 0

    def add(self, stats: VariantStats) -> None:
        self.played += stats.played
        self.won += stats.won
        self.total_score += stats.total_score
        self.best_score = max(self.best_score or 0, stats.best_score)
        self.perfect += stats.perfect
        self.strikeouts += stats.strikeouts

    @property
    def average(self) -> float | None:
        return self.total_score / self.played if self.played else None


@dataclass
class VariantRow:
    """One row of the "max scores" table: a variant, its cell per table size (2–6)."""

    variant: str
    max_score: int
    cells: list[VariantStats | None]
    totals: Totals


def variant_order(variant: str) -> tuple[bool, str]:
    return (variant != NO_VARIANT, variant)


def figures_of(user: User) -> dict:
    """The totals, the max-scores table (rows by variant, a cell per table size) and the
    frequent partners: two queries."""
    totals = Totals()
    rows: dict[str, VariantRow] = {}
    for stats in VariantStats.objects.filter(user=user):
        totals.add(stats)
        row = rows.get(stats.variant)
        if row is None:
            row = rows[stats.variant] = VariantRow(
                stats.variant, stats.max_score, [None] * len(TABLE_SIZES), Totals()
            )
        row.cells[stats.player_count - TABLE_SIZES.start] = stats
        row.totals.add(stats)
    partners = (
        PartnerStats.objects.filter(user=user)
        .select_related("partner")
        .order_by("-played", "partner__display_name", "partner_id")[:FREQUENT_PARTNERS]
    )
    return {
        "totals": totals,
        "variant_rows": [rows[name] for name in sorted(rows, key=variant_order)],
        "table_sizes": list(TABLE_SIZES),
        "partners": list(partners),
    }
