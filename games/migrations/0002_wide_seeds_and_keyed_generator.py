"""Seeds of 256 bits (a 64-bit integer column cannot hold them) and the generator
each match's seed starts. Matches that already have a seed were dealt by splitmix64
and finish on it; every match started from now on is dealt by the keyed generator."""

from typing import Any

from django.db import migrations, models

import games.models


def mark_started_matches_as_splitmix64(apps: Any, schema_editor: Any) -> None:
    Match = apps.get_model("games", "Match")
    Match.objects.filter(seed__isnull=False).update(generator="splitmix64")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="generator",
            field=models.CharField(
                choices=[("keyed", "keyed"), ("splitmix64", "splitmix64")],
                default="keyed",
                editable=False,
                max_length=12,
            ),
        ),
        migrations.RunPython(mark_started_matches_as_splitmix64, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="match",
            name="seed",
            field=games.models.SeedField(blank=True, editable=False, max_length=80, null=True),
        ),
    ]
