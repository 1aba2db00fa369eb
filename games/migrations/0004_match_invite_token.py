"""An unguessable invitation token per match: private matches are joined through a
link that carries it. Existing matches each get their own token (a callable default
would give every existing row the same one, which the unique index refuses)."""

from typing import Any

from django.db import migrations, models

import games.models


def give_every_match_a_token(apps: Any, schema_editor: Any) -> None:
    Match = apps.get_model("games", "Match")
    for match in Match.objects.filter(invite_token__isnull=True).only("pk"):
        match.invite_token = games.models.new_invite_token()
        match.save(update_fields=["invite_token"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_seat_display_name"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="invite_token",
            field=models.CharField(editable=False, max_length=32, null=True),
        ),
        migrations.RunPython(give_every_match_a_token, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="match",
            name="invite_token",
            field=models.CharField(
                default=games.models.new_invite_token, editable=False, max_length=32, unique=True
            ),
        ),
    ]
