"""The seat field that means "out of the game" is called so, with a reason: resigned
today; timed_out and no_show come with clocks and tournaments."""

from typing import Any

from django.db import migrations, models


def seats_already_out_resigned(apps: Any, schema_editor: Any) -> None:
    Seat = apps.get_model("games", "Seat")
    Seat.objects.filter(resigned_at__isnull=False).update(resigned_reason="resigned")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_match_invite_token"),
    ]

    operations = [
        migrations.RenameField(model_name="seat", old_name="forfeited_at", new_name="resigned_at"),
        migrations.AddField(
            model_name="seat",
            name="resigned_reason",
            field=models.CharField(blank=True, choices=[("resigned", "Resigned")], default="", max_length=12),
        ),
        migrations.RunPython(seats_already_out_resigned, migrations.RunPython.noop),
    ]
