from django.core.management.base import BaseCommand

from players.rebuild import rebuild_all


class Command(BaseCommand):
    help = (
        "Recompute every player's statistics and history from the finished games, in place "
        "of the stored ones (the hidden flags are kept). Games that end meanwhile wait for it."
    )

    def handle(self, *args, **options) -> None:
        rebuilt = rebuild_all()
        self.stdout.write(
            f"Rebuilt the statistics of {rebuilt.people} players from their "
            f"{rebuilt.records} finished games (one per player)."
        )
