"""``manage.py rebuild_ratings [--game SLUG ...]``: forget the ratings and replay every
finished match in finishing order (``services.ratings_rebuild``). For a new rule or
model, a repair, or the matches that finished before ratings existed."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.errors import MatchError
from games.ratings.services import ratings_rebuild


class Command(BaseCommand):
    help = "Replay every finished match, in finishing order, into the ratings (all games, or --game)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--game", action="append", dest="games", metavar="SLUG", help="only this game (repeatable)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        try:
            rated = ratings_rebuild(game_slugs=options["games"])
        except MatchError as error:
            raise CommandError(str(error)) from None
        for slug, count in rated.items():
            self.stdout.write(f"{slug}: {count} rated match{'es' if count != 1 else ''}")
        self.stdout.write(f"rebuilt in {time.perf_counter() - started:.1f} s")
