"""The writes of tournaments: opening registration, registering and withdrawing,
starting (seeding, bot fill, round 1), advancing after each finished table, cancelling.

**Exactly once.** Every write runs in one transaction that first locks the
tournament row (``locks.lock_tournament``; the lock order is tournament → match →
seats, games/locks.py). A round is built in that same transaction with its tables and their
matches, so a worker killed mid-way leaves nothing behind, and the unique
(tournament, number) of a round makes a second build of the same round fail in the
database even where the lock does nothing (SQLite serialises writers instead).

**Time.** Tables run on the tournament's time control with the core's clocks: a
turn not taken in time is played by the autopilot, and after the tournament's
timeouts in a row the player forfeits. A forfeit puts the player out of the rest of
the tournament, as withdrawing does; so no round waits longer than its clocks allow.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
from datetime import datetime
from enum import StrEnum
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from games.engine import get
from games.errors import ErrorCode
from games.models import Match, ResignReason, Seat
from games.ratings.selectors import conservative_ratings
from games.services import (
    MatchError,
    PlacedSeat,
    announcement_delivered,
    bot_account,
    match_create_seated,
    match_resign,
)
from games.tournaments import effects, formats, selectors
from games.tournaments.errors import TournamentError
from games.tournaments.locks import lock_tournament
from games.tournaments.models import Entry, Round, Table, Tournament
from games.tournaments.setup import format_settings, setup_problems

logger = logging.getLogger(__name__)

# The task that hears "match finished" (settings.MATCH_FINISHED_TASKS names it).
MATCH_FINISHED_TASK = "games.tournaments.tasks.match_finished"


class AdvanceOutcome(StrEnum):
    """What tournament_advance (or match_finished) did, for logs, the admin and tests."""

    NOT_RUNNING = "not running"
    WAITING = "waiting for tables"
    SEATED = "next round seated"
    FINISHED = "finished"
    NOT_A_TABLE = "not a tournament table"


def _problems_in_words(tournament: Tournament) -> str:
    problems = setup_problems(tournament)
    return " ".join(message for messages in problems.values() for message in messages)


# -- registration ---------------------------------------------------------------------


def tournament_open(*, tournament_id: int) -> Tournament:
    """Publish a tournament being set up: it is listed, and registration opens at its time."""
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        if tournament.status != Tournament.Status.DRAFT:
            raise TournamentError(
                ErrorCode.NOT_A_DRAFT, f"{tournament} is already {tournament.get_status_display().lower()}."
            )
        problems = _problems_in_words(tournament)
        if problems:
            raise TournamentError(ErrorCode.BAD_TOURNAMENT_SETUP, problems)
        tournament.status = Tournament.Status.REGISTRATION
        tournament.save(update_fields=["status"])
        effects.tournament_changed(tournament.pk)
    return tournament


def registration_is_open(tournament: Tournament, now: datetime | None = None) -> bool:
    now = now or timezone.now()
    return (
        tournament.status == Tournament.Status.REGISTRATION
        and tournament.registration_opens_at <= now < tournament.registration_closes_at
    )


def tournament_register(*, tournament_id: int, user: User) -> Entry:
    """Enter ``user``: while registration is open and there is room; a person who
    withdrew may enter again before the start."""
    if not user.is_authenticated or user.is_bot:
        raise TournamentError(ErrorCode.LOGIN_REQUIRED, "Sign in to register.")
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        if not registration_is_open(tournament):
            raise TournamentError(
                ErrorCode.REGISTRATION_CLOSED, "Registration for this tournament is not open."
            )
        entry = tournament.entries.filter(user=user, bot_number__isnull=True).first()
        if entry is not None and entry.withdrawn_at is None:
            raise TournamentError(ErrorCode.ALREADY_REGISTERED, "You are registered already.")
        if selectors.active_entries(tournament).count() >= tournament.max_entrants:
            raise TournamentError(
                ErrorCode.TOURNAMENT_FULL, f"The tournament is full ({tournament.max_entrants} entrants)."
            )
        if entry is None:
            try:
                with transaction.atomic():
                    entry = Entry.objects.create(
                        tournament=tournament, user=user, display_name=_entry_name(user.public_name)
                    )
            except IntegrityError:
                raise TournamentError(ErrorCode.ALREADY_REGISTERED, "You are registered already.") from None
        else:
            entry.withdrawn_at = None
            entry.save(update_fields=["withdrawn_at"])
        effects.tournament_changed(tournament.pk)
    return entry


def _entry_name(name: str) -> str:
    """The name an entry shows (the one seen at its tables), cut to the column: a username
    may be longer than the 60 characters an entry keeps."""
    return name[: Entry._meta.get_field("display_name").max_length]


def tournament_withdraw(*, tournament_id: int, user: User) -> Entry:
    """Leave: before the start the entry stops counting; once it runs, the player is out
    of the rest of it, and resigns the table they are playing (its autopilot finishes)."""
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        entry = tournament.entries.filter(
            user=user, bot_number__isnull=True, withdrawn_at__isnull=True
        ).first()
        if entry is None or entry.out:
            raise TournamentError(ErrorCode.NOT_PLAYING, "You are not playing in this tournament.")
        if tournament.is_over:
            raise TournamentError(ErrorCode.TOURNAMENT_OVER, "This tournament is over.")
        entry.withdrawn_at = timezone.now()
        fields = ["withdrawn_at"]
        if tournament.status == Tournament.Status.RUNNING:
            current = selectors.current_round(tournament)
            entry.out = Entry.Out.WITHDREW
            entry.out_in_round = current.number if current else None
            fields += ["out", "out_in_round"]
            _resign_running_table(entry)
        entry.save(update_fields=fields)
        effects.tournament_changed(tournament.pk)
    return entry


def _resign_running_table(entry: Entry) -> None:
    for table in Table.objects.filter(
        round__tournament_id=entry.tournament_id, match__status=Match.Status.RUNNING
    ).select_related("match"):
        if entry.pk in table.entries:
            # MatchError: already out of that match (resigned, or forfeited on time).
            with contextlib.suppress(MatchError):
                match_resign(match_id=table.match_id, user=entry.user)


# -- start ------------------------------------------------------------------------------


def tournament_start(*, tournament_id: int) -> Tournament:
    """Close registration, fill empty places with bots if asked, seed, and seat round 1.
    Too few entrants for the format cancels it, saying why."""
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        if tournament.status not in {Tournament.Status.DRAFT, Tournament.Status.REGISTRATION}:
            raise TournamentError(
                ErrorCode.ALREADY_STARTED,
                f"{tournament} is {tournament.get_status_display().lower()}: it cannot start.",
            )
        problems = _problems_in_words(tournament)
        if problems:
            raise TournamentError(ErrorCode.BAD_TOURNAMENT_SETUP, problems)
        entries = list(selectors.active_entries(tournament).order_by("registered_at", "pk"))
        why = _too_few(tournament, entries)
        if why:
            if tournament.status == Tournament.Status.DRAFT:
                # Cancelling would publish it (a cancelled tournament is listed): a draft stays one.
                raise TournamentError(ErrorCode.TOO_FEW_ENTRANTS, why + " It stays a draft, shown to nobody.")
            _cancel(tournament, why)
            return tournament
        entries += _bot_fill(tournament, entries)
        for seed, entry in enumerate(_seeded(tournament, entries), start=1):
            entry.seed = seed
        Entry.objects.bulk_update(entries, ["seed"])
        tournament.status = Tournament.Status.RUNNING
        tournament.started_at = timezone.now()
        tournament.save(update_fields=["status", "started_at"])
        _advance(tournament)
        # One email to each person at the start, carrying their first table (or bye):
        # round 1's "your table is ready" is that email (``_advance``).
        effects.tournament_started(tournament.pk)
    return tournament


def _too_few(tournament: Tournament, entries: list[Entry]) -> str:
    """Why ``entries`` (with the bots that would fill the empty places) cannot start
    ``tournament``; empty when they can. Bots fill the places beside the entrants, never
    a whole tournament: one nobody entered would be a tournament of bots, listed as won
    by one."""
    if not entries:
        return "Not enough entrants: nobody has entered (bots only fill the places beside people)."
    field = len(entries) + _bot_places(tournament, len(entries))
    too_few = formats.validate(format_settings(tournament), field)
    return "Not enough entrants: " + " ".join(too_few) if too_few else ""


def _bot_places(tournament: Tournament, entrants: int) -> int:
    """How many empty places bots fill beside ``entrants`` people: all of them up to the
    field size (``max_entrants``) when the organiser chose a bot level."""
    return formats.bot_places(
        field_size=tournament.max_entrants, entrants=entrants, filling=bool(tournament.bot_fill_level)
    )


def _bot_fill(tournament: Tournament, entries: list[Entry]) -> list[Entry]:
    """Bot entries for the empty places (``_bot_places``), each a place of its own."""
    places = _bot_places(tournament, len(entries))
    if not places:
        return []
    bot = bot_account(tournament.bot_fill_level, get(tournament.game))
    first = 1 + max((entry.bot_number or 0 for entry in entries), default=0)
    return [
        Entry.objects.create(
            tournament=tournament,
            user=bot,
            bot_number=number,
            display_name=_entry_name(f"{bot.public_name} {number}"),
        )
        for number in range(first, first + places)
    ]


def _seeded(tournament: Tournament, entries: list[Entry]) -> list[Entry]:
    """Best first. By rating: the conservative rating in the game (mu - 3 sigma, low
    while little is known), then unrated players in the order they registered, bot places last. Random:
    a shuffle from the system's secret generator."""
    if tournament.seeding == Tournament.Seeding.RANDOM:
        shuffled = list(entries)
        secrets.SystemRandom().shuffle(shuffled)
        return shuffled
    ratings = conservative_ratings(tournament.game, [entry.user_id for entry in entries])
    order = {entry.pk: position for position, entry in enumerate(entries)}

    def key(entry: Entry) -> tuple[bool, bool, float, int]:
        rating = ratings.get(entry.user_id)
        return (entry.bot_number is not None, rating is None, -(rating or 0.0), order[entry.pk])

    return sorted(entries, key=key)


# -- advancing ------------------------------------------------------------------------------


def match_finished(*, match_id: int) -> AdvanceOutcome:
    """Told by the core that a match finished (at least once): if it is a tournament's
    table, record its result and advance the tournament. Then mark the announcement done."""
    table = Table.objects.filter(match_id=match_id).select_related("round").first()
    outcome = AdvanceOutcome.NOT_A_TABLE
    if table is not None:
        outcome = tournament_advance(tournament_id=table.round.tournament_id)
        if (
            outcome == AdvanceOutcome.NOT_RUNNING
            and not Table.objects.filter(pk=table.pk, places__isnull=False).exists()
        ):
            # A table of a cancelled tournament, played on as an ordinary match: no
            # advance recorded it (which would have told its people), so its "match
            # over" emails go from here. Told twice, the notices' key sends them once.
            effects.tables_over([match_id])
    announcement_delivered(match_id=match_id, task_name=MATCH_FINISHED_TASK)
    return outcome


def tournament_advance(*, tournament_id: int) -> AdvanceOutcome:
    """Record the results of finished tables; when the current round's last table is
    done, seat the next round, or finish the tournament. Safe to run any number of
    times, at once or after a crash: it acts on what the rows say."""
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        if tournament.status != Tournament.Status.RUNNING:
            return AdvanceOutcome.NOT_RUNNING
        return _advance(tournament)


def _advance(tournament: Tournament) -> AdvanceOutcome:
    """Call with the tournament locked."""
    outcome = AdvanceOutcome.WAITING
    recorded: list[int] = []  # the match ids of the tables recorded now
    current = selectors.current_round(tournament)
    while True:
        if current is not None:
            recorded += _record_results(current)
            if current.tables.filter(places__isnull=True).exists():
                break
            if current.finished_at is None:
                current.finished_at = timezone.now()
                current.save(update_fields=["finished_at"])
        following = formats.next_round(selectors.format_state(tournament))
        if following is None:
            tournament.status = Tournament.Status.FINISHED
            tournament.finished_at = timezone.now()
            tournament.save(update_fields=["status", "finished_at"])
            outcome = AdvanceOutcome.FINISHED
            break
        current = _seat_round(tournament, (current.number if current else 0) + 1, following)
        outcome = AdvanceOutcome.SEATED
        # A round of byes only (nothing to play) is over at once: go on to the next.
    effects.tournament_changed(tournament.pk)
    # Who played the tables recorded now is told they are over ("match over"), except
    # where they ended the tournament (its end email tells both), and those seated at
    # a next table now, whose "your table is ready" tells both: one email for one moment.
    if outcome == AdvanceOutcome.FINISHED:
        effects.tournament_ended(tournament.pk, last_match_ids=recorded)
        return outcome
    seated = current if outcome == AdvanceOutcome.SEATED and current is not None else None
    if seated is not None and seated.number > 1:  # round 1's tables are in the start's email
        effects.round_seated(seated.pk, after_match_ids=recorded)
    if recorded:
        effects.tables_over(recorded, next_round_id=seated.pk if seated is not None else None)
    return outcome


def _record_results(round_: Round) -> list[int]:
    """Each finished table's places by entry; a player who forfeited on time is out.
    Returns the match ids of the tables recorded."""
    tables = list(round_.tables.filter(places__isnull=True, match__status=Match.Status.FINISHED))
    if not tables:
        return []
    seats: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(match_id__in=[table.match_id for table in tables]).order_by("index"):
        seats.setdefault(seat.match_id, []).append(seat)
    forfeited: list[int] = []
    for table in tables:
        places: dict[str, int] = {}
        for seat in seats.get(table.match_id, []):
            entry_id = table.entries[seat.index]
            places[str(entry_id)] = seat.rank if seat.rank is not None else len(table.entries)
            if seat.resigned_reason == ResignReason.TIMED_OUT:
                forfeited.append(entry_id)
        table.places = places
        table.save(update_fields=["places"])
    Entry.objects.filter(pk__in=forfeited, out="").update(out=Entry.Out.FORFEITED, out_in_round=round_.number)
    return [table.match_id for table in tables]


def _seat_round(tournament: Tournament, number: int, planned: formats.Round) -> Round:
    """The round's row, then a match per table with its entrants seated in order."""
    round_ = Round.objects.create(tournament=tournament, number=number, byes=list(planned.byes))
    entries = {entry.pk: entry for entry in tournament.entries.select_related("user")}
    for table_number, table in enumerate(planned.tables, start=1):
        match = match_create_seated(
            created_by=tournament.created_by,
            game_slug=tournament.game,
            options=tournament.options,
            seats=[PlacedSeat(entries[entry_id].user, joined=True) for entry_id in table.entrants],
            visibility=Match.Visibility.PUBLIC,
            turn_limit=tournament.turn_limit,
            timeouts_to_forfeit=tournament.timeouts_to_forfeit,
            vacation_allowed=tournament.vacation_allowed,
            rated=tournament.rated,
        )
        Table.objects.create(round=round_, number=table_number, match=match, entries=list(table.entrants))
    return round_


# -- the organiser's other actions -----------------------------------------------------------


def tournament_cancel(*, tournament_id: int, because: str) -> Tournament:
    """Stop it: no further round. Tables already running play on as ordinary matches."""
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        if tournament.is_over:
            raise TournamentError(
                ErrorCode.TOURNAMENT_OVER,
                f"{tournament} is {tournament.get_status_display().lower()} already.",
            )
        if tournament.status == Tournament.Status.DRAFT:
            # Cancelling would publish it (a cancelled tournament is listed, with the reason).
            raise TournamentError(
                ErrorCode.STILL_A_DRAFT,
                f"{tournament} is a draft, shown to nobody: delete it instead of cancelling.",
            )
        _cancel(tournament, because.strip() or "Cancelled by the organiser.")
    return tournament


def _cancel(tournament: Tournament, because: str) -> None:
    tournament.status = Tournament.Status.CANCELLED
    tournament.cancelled_because = because[:200]
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "cancelled_because", "finished_at"])
    effects.tournament_changed(tournament.pk)
    effects.tournament_ended(tournament.pk, last_match_ids=[])


def tournaments_sweep(now: datetime | None = None) -> dict[str, Any]:
    """Start the tournaments whose time has come, and advance any running one whose
    finished table has not been recorded yet (a lost announcement is resent anyway;
    this is the belt to its braces). One tournament's failure does not stop the others."""
    now = now or timezone.now()
    started, advanced = 0, 0
    for tournament_id in selectors.tournaments_to_start(now):
        try:
            tournament_start(tournament_id=tournament_id)
            started += 1
        except Exception:
            logger.exception("tournament %s: start failed", tournament_id)
    for tournament_id in selectors.tournaments_with_unrecorded_results():
        try:
            tournament_advance(tournament_id=tournament_id)
            advanced += 1
        except Exception:
            logger.exception("tournament %s: advancing failed", tournament_id)
    return {"started": started, "advanced": advanced}
