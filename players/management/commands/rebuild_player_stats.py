from django.core.management.base import BaseCommand

from players.rebuild import rebuild_all


class Command(BaseCommand):
    help = (
        "Recompute every player's statistics and history from the finished games, in place "
        "of the stored ones (the hidden flags are kept). Games that end meanwhile wait for it."
    )

    def handle(self, *args, **options) -> None:
        counted = rebuild_all()
        people = len(counted.streaks)
        self.stdout.write(f"Rebuilt the statistics of {people} players from their games.")
