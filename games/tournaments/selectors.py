"""Reads of tournaments: the format's state, rebuilt from the rows; the lists and
pages' data."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Max, Q, QuerySet
from django.urls import reverse

from accounts.models import User
from games.engine import IllegalAction, get
from games.match_notes import MatchNote
from games.models import Match
from games.services import MatchError, bot_account
from games.tournaments import formats
from games.tournaments.models import Entry, Round, Table, Tournament
from games.tournaments.setup import format_settings


def active_entries(tournament: Tournament) -> QuerySet[Entry]:
    """Entries that count before the start: registered and not withdrawn."""
    return tournament.entries.filter(withdrawn_at__isnull=True)


def format_state(tournament: Tournament) -> formats.State:
    """What the pure format needs to build the next round: the seeds, every finished
    round with its places, and who is out. Rounds still being played are left out."""
    rounds = list(tournament.rounds.filter(finished_at__isnull=False))
    tables_of: dict[int, list[Table]] = {}
    for table in Table.objects.filter(round__in=rounds).order_by("round_id", "number"):
        tables_of.setdefault(table.round_id, []).append(table)
    return state_from_rows(tournament, tournament.entries.all(), rounds, tables_of)


def state_from_rows(
    tournament: Tournament,
    entries: Iterable[Entry],
    rounds: Iterable[Round],
    tables_of: dict[int, list[Table]],
) -> formats.State:
    """The format's state from rows already read (the pages read them for themselves):
    ``tables_of`` holds each round's tables by number. Rounds not finished are left out."""
    entries = list(entries)
    seeds = tuple(
        entry.pk for entry in sorted(entries, key=lambda entry: entry.seed or 0) if entry.seed is not None
    )
    played = tuple(
        _played_round(round_, tables_of.get(round_.pk, []))
        for round_ in sorted(rounds, key=lambda round_: round_.number)
        if round_.finished_at is not None
    )
    out = frozenset(entry.pk for entry in entries if entry.out)
    return formats.State(settings=format_settings(tournament), seeds=seeds, played=played, out=out)


def _played_round(round_: Round, tables: list[Table]) -> formats.PlayedRound:
    return formats.PlayedRound(
        round=formats.Round(
            tables=tuple(formats.Table(entrants=tuple(table.entries)) for table in tables),
            byes=tuple(round_.byes),
        ),
        places=tuple(
            {int(entry): int(place) for entry, place in (table.places or {}).items()} for table in tables
        ),
    )


def entered_by(user_id: int) -> set[int]:
    """The tournaments ``user_id`` counts among the entrants of (registered and not
    withdrawn before the start, or out of it while it ran)."""
    return set(
        Entry.objects.filter(user_id=user_id, bot_number__isnull=True)
        .filter(Q(withdrawn_at__isnull=True) | ~Q(out=""))
        .values_list("tournament_id", flat=True)
    )


def finished_rows(
    tournament_ids: Sequence[int],
) -> tuple[dict[int, list[Entry]], dict[int, list[Round]], dict[int, list[Table]]]:
    """What the final standings of many tournaments need, in three queries for all of
    them: their seeded (or out) entries, finished rounds, and those rounds' tables."""
    entries: dict[int, list[Entry]] = defaultdict(list)
    for entry in Entry.objects.filter(tournament_id__in=tournament_ids).filter(
        Q(seed__isnull=False) | ~Q(out="")
    ):
        entries[entry.tournament_id].append(entry)
    rounds: dict[int, list[Round]] = defaultdict(list)
    for round_ in Round.objects.filter(tournament_id__in=tournament_ids, finished_at__isnull=False):
        rounds[round_.tournament_id].append(round_)
    tables_of: dict[int, list[Table]] = defaultdict(list)
    for table in Table.objects.filter(
        round__tournament_id__in=tournament_ids, round__finished_at__isnull=False
    ).order_by("round_id", "number"):
        tables_of[table.round_id].append(table)
    return entries, rounds, tables_of


def current_round(tournament: Tournament) -> Round | None:
    return tournament.rounds.order_by("-number").first()


def tournaments_to_start(now: datetime) -> list[int]:
    return list(
        Tournament.objects.filter(status=Tournament.Status.REGISTRATION, starts_at__lte=now)
        .order_by("starts_at", "pk")
        .values_list("pk", flat=True)
    )


def tournaments_with_unrecorded_results() -> list[int]:
    """Running tournaments with a finished table whose result is not recorded yet: the
    match-finished announcement is still on its way (or was lost and is being resent)."""
    return list(
        Tournament.objects.filter(
            status=Tournament.Status.RUNNING,
            rounds__tables__places__isnull=True,
            rounds__tables__match__status=Match.Status.FINISHED,
        )
        .distinct()
        .values_list("pk", flat=True)
    )


@dataclass(frozen=True)
class Listing:
    upcoming: list[Tournament]
    running: list[Tournament]
    finished: list[Tournament]


def tournament_listing(*, finished_limit: int = 30) -> Listing:
    """The tournaments page: open for registration, running, and the latest over."""
    shown = Tournament.objects.exclude(status=Tournament.Status.DRAFT).annotate(
        # Who plays or played: a withdrawal before the start gives the place back; one
        # during the tournament still counts (the player is out, shown as such).
        entrants=Count("entries", filter=Q(entries__withdrawn_at__isnull=True) | ~Q(entries__out=""))
    )
    return Listing(
        upcoming=list(shown.filter(status=Tournament.Status.REGISTRATION).order_by("starts_at", "pk")),
        running=list(shown.filter(status=Tournament.Status.RUNNING).order_by("starts_at", "pk")),
        finished=list(
            shown.filter(status__in=[Tournament.Status.FINISHED, Tournament.Status.CANCELLED]).order_by(
                "-finished_at", "-pk"
            )[:finished_limit]
        ),
    )


@dataclass(frozen=True)
class OpenAndRunning:
    open: list[Tournament]  # registration, soonest start first
    running: list[Tournament]  # oldest start first


def open_and_running(*, limit: int = 3) -> OpenAndRunning:
    """A few tournaments published and not started yet (registration open, or opening or
    closed before the start) and a few running, with their entrants counted (``entrants``)
    and their last round's number (``round_number``, None before one): the home and play
    pages' list, in two queries."""
    shown = Tournament.objects.annotate(
        # As the tournaments page counts: a withdrawal during the tournament still counts.
        entrants=Count(
            "entries", filter=Q(entries__withdrawn_at__isnull=True) | ~Q(entries__out=""), distinct=True
        ),
        round_number=Max("rounds__number"),
    )
    return OpenAndRunning(
        open=list(shown.filter(status=Tournament.Status.REGISTRATION).order_by("starts_at", "pk")[:limit]),
        running=list(shown.filter(status=Tournament.Status.RUNNING).order_by("starts_at", "pk")[:limit]),
    )


def tells_match_over(match: Match) -> bool:
    """Whether ``match`` is a tournament's table, whose people the tournament tells that it
    is over itself (``settings.MATCH_OVER_TOLD_BY``): with the usual "match over" email
    once its result is recorded, or, for the tables that end the tournament, in the end's
    email (one email for one event)."""
    return Table.objects.filter(match=match).exists()


def match_notes(matches: list[Match]) -> dict[int, MatchNote]:
    """The line each tournament table among ``matches`` shows under its title, on its
    page and on a history row (``settings.MATCH_NOTES``): the tournament, its round and
    the table, linking to the tournament's page. One query whatever their number."""
    tables = Table.objects.filter(match__in=[match.pk for match in matches]).select_related(
        "round__tournament"
    )
    return {
        table.match_id: MatchNote(
            text=f"{table.round.tournament.name}: round {table.round.number}, table {table.number}",
            url=reverse("tournaments:detail", args=[table.round.tournament_id]),
        )
        for table in tables
    }


@dataclass(frozen=True)
class TournamentRows:
    """A tournament's rows as its page and its export need them, read in four queries
    whatever its size: its entries with their people, its rounds, and their tables with
    their matches."""

    tournament: Tournament
    entries: list[Entry]  # every entry, withdrawn ones included, with its user, by id
    rounds: list[Round]  # by number
    tables_of: dict[int, list[Table]]  # each round's tables (by round id), by number

    def state(self) -> formats.State:
        """The format's state from these rows: finished rounds only."""
        return state_from_rows(self.tournament, self.entries, self.rounds, self.tables_of)


def tournament_rows(tournament: Tournament) -> TournamentRows:
    entries = list(tournament.entries.select_related("user").order_by("pk"))
    rounds = list(tournament.rounds.order_by("number"))
    tables_of: dict[int, list[Table]] = {round_.pk: [] for round_ in rounds}
    for table in (
        Table.objects.filter(round__tournament=tournament)
        .select_related("match")
        .only("pk", "round_id", "number", "entries", "places", "match__id", "match__status")
        .order_by("round_id", "number")
    ):
        tables_of.setdefault(table.round_id, []).append(table)
    return TournamentRows(tournament=tournament, entries=entries, rounds=rounds, tables_of=tables_of)


@dataclass(frozen=True)
class FirstRoundPreview:
    """Round 1 as it would be seated if the tournament started now: provisional, since
    seeds are set at the start (by rating or at random). Here people are seeded in the
    order they registered and the bot places after them."""

    people: int
    bots: int
    tables: list[list[str]]  # names, in seat order
    byes: list[str]
    why_not: str  # why it could not start now ("" when it could)


def first_round_preview(tournament: Tournament) -> FirstRoundPreview:
    """For the organiser, before the start: the current entrants and the bots that would
    fill the empty places (``formats.bot_places``), seated by the format's ``next_round``."""
    names = [entry.display_name for entry in active_entries(tournament).order_by("registered_at", "pk")]
    people = len(names)
    bots = formats.bot_places(
        field_size=tournament.max_entrants, entrants=people, filling=bool(tournament.bot_fill_level)
    )
    if not people:
        why = "Nobody has entered yet (bots fill only the places beside people)."
        return FirstRoundPreview(people=0, bots=bots, tables=[], byes=[], why_not=why)
    names += [f"{_bot_name(tournament)} {number}" for number in range(1, bots + 1)]
    settings = format_settings(tournament)
    too_few = formats.validate(settings, len(names))
    if too_few:
        return FirstRoundPreview(people=people, bots=bots, tables=[], byes=[], why_not=" ".join(too_few))
    planned = formats.next_round(formats.State(settings=settings, seeds=tuple(range(1, len(names) + 1))))
    assert planned is not None  # a tournament with enough entrants has a first round
    return FirstRoundPreview(
        people=people,
        bots=bots,
        tables=[[names[seed - 1] for seed in table.entrants] for table in planned.tables],
        byes=[names[seed - 1] for seed in planned.byes],
        why_not="",
    )


def _bot_name(tournament: Tournament) -> str:
    """The name bot places take (``services._bot_fill``: the bot account's name, numbered)."""
    try:
        return bot_account(tournament.bot_fill_level, get(tournament.game)).public_name
    except (MatchError, IllegalAction, User.DoesNotExist):
        return f"{tournament.bot_fill_level.title()} Bot"
