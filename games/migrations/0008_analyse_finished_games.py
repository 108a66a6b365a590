"""Games that finished before the hindsight analysis existed get an analysis row in the
outbox, so that the sweep hands them to a worker like any new one."""

from django.db import migrations
from django.utils import timezone


def schedule_missing_analyses(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Outbox = apps.get_model("games", "Outbox")
    scheduled = set(Outbox.objects.filter(kind="analysis").values_list("dedupe_key", flat=True))
    now = timezone.now()
    Outbox.objects.bulk_create(
        Outbox(kind="analysis", payload={"game": pk}, dedupe_key=str(pk), due_at=now)
        for pk in Game.objects.filter(status="finished").values_list("pk", flat=True)
        if str(pk) not in scheduled
    )


class Migration(migrations.Migration):
    dependencies = [("games", "0007_deal_analysis")]

    operations = [migrations.RunPython(schedule_missing_analyses, migrations.RunPython.noop)]
