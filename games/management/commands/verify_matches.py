"""``manage.py verify_matches [--first ID] [--last ID]``: replay finished matches from
their seeds and report any whose recorded position or result differs (games/replays.py).
Exits with status 1 when one differs, so it can run in a scheduled check."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import replays
from games.models import Match


class Command(BaseCommand):
    help = "Replay finished matches from their seeds and report any that differ from what they recorded."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--first", type=int, help="the first match id to check")
        parser.add_argument("--last", type=int, help="the last match id to check")

    def handle(self, *args: Any, first: int | None = None, last: int | None = None, **options: Any) -> None:
        matches = Match.objects.filter(status=Match.Status.FINISHED).order_by("pk")
        if first is not None:
            matches = matches.filter(pk__gte=first)
        if last is not None:
            matches = matches.filter(pk__lte=last)
        checked, differ = 0, []
        for match in matches.iterator(chunk_size=200):
            result = replays.verify(match)
            checked += 1
            if not result.ok:
                differ.append(match.pk)
                self.stdout.write(f"match {match.pk} ({match.game}): {result.why}")
        self.stdout.write(f"{checked} finished matches checked, {len(differ)} differ.")
        if differ:
            raise CommandError(f"{len(differ)} match(es) differ: {', '.join(map(str, differ[:20]))}")
