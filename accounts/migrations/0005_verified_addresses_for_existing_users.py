"""Accounts made before allauth never verified their address; they have been receiving
game emails at it, so it counts as verified (allauth's EmailAddress, primary)."""

from django.db import migrations


def verify_existing_addresses(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    EmailAddress = apps.get_model("account", "EmailAddress")
    have_one = set(EmailAddress.objects.values_list("user_id", flat=True))
    EmailAddress.objects.bulk_create(
        [
            EmailAddress(user_id=pk, email=email.lower(), verified=True, primary=True)
            for pk, email in User.objects.values_list("pk", "email").iterator()
            if pk not in have_one
        ],
        batch_size=1000,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0004_suspension"),
        ("account", "0009_emailaddress_unique_primary_email"),
    ]

    operations = [migrations.RunPython(verify_existing_addresses, migrations.RunPython.noop)]
