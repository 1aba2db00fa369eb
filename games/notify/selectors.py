"""Reads for notifications: what is due (by indexed columns, oldest first), and what
an email tells (from the person's own seat view only: never hidden information)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Exists, OuterRef, QuerySet

from accounts.models import User
from games import clocks, replays
from games.engine import IllegalAction
from games.engine.log import render_text
from games.models import Match, Seat
from games.notify.models import Notice
from games.selectors import seat_names

# One sweep acts on at most this many items of each kind; the rest wait for the next.
BATCH = 500
# An email tells at most this many of the events since the player's last move.
LOG_LINES = 12
# Invitations are found among open matches created between ``grace`` and ``grace +
# INVITATION_WINDOW`` ago (Seat has no indexed "invited at"; docs/site.md): an invitation
# a sweep outage kept from its email for longer than this gets none (My matches and the
# digest still list it).
INVITATION_WINDOW = timedelta(days=1)


def grace() -> timedelta:
    return timedelta(seconds=settings.NUDGE_GRACE_SECONDS)


# -- what is due -----------------------------------------------------------------


def nudges_due(now: datetime) -> list[tuple[int, datetime]]:
    """(seat id, nudge_at) of the "your turn" emails due, by the indexed ``Seat.nudge_at``."""
    due = Seat.objects.filter(nudge_at__lte=now).order_by("nudge_at").values_list("pk", "nudge_at")[:BATCH]
    return [(seat_id, moment) for seat_id, moment in due if moment is not None]


def alarms_due(now: datetime) -> list[tuple[int, datetime]]:
    """(seat id, alarm_at) of the "about to lose on time" emails due (``Seat.alarm_at``)."""
    due = Seat.objects.filter(alarm_at__lte=now).order_by("alarm_at").values_list("pk", "alarm_at")[:BATCH]
    return [(seat_id, moment) for seat_id, moment in due if moment is not None]


def invitations_due(now: datetime) -> list[int]:
    """Seat ids of invitations waiting since the grace, without a notice yet. Open
    matches are found by the (status, visibility) index; an invitation is made with its
    match, so the match's creation is the invitation's."""
    noticed = Notice.objects.filter(
        user=OuterRef("user"), match=OuterRef("match"), kind=Notice.Kind.INVITATION
    )
    return list(
        Seat.objects.filter(
            match__status=Match.Status.OPEN,
            match__created_at__lte=now - grace(),
            match__created_at__gt=now - grace() - INVITATION_WINDOW,
            user__isnull=False,
            joined_at__isnull=True,
        )
        .exclude(Exists(noticed))
        .order_by("pk")
        .values_list("pk", flat=True)[:BATCH]
    )


def digests_due(now: datetime) -> list[tuple[int, datetime]]:
    """(user id, next_digest_at) of the digests due, by the indexed ``User.next_digest_at``."""
    due = (
        User.objects.filter(next_digest_at__lte=now)
        .order_by("next_digest_at")
        .values_list("pk", "next_digest_at")[:BATCH]
    )
    return [(user_id, moment) for user_id, moment in due if moment is not None]


def notices_to_retry(claimed_before: datetime) -> list[tuple[int, datetime]]:
    """(notice id, claimed_at) of notices claimed before ``claimed_before`` and never sent:
    their sender died or the mail server refused (the partial index ``notice_claimed_unsent``)."""
    return list(
        Notice.objects.filter(status=Notice.Status.CLAIMED, claimed_at__lt=claimed_before)
        .order_by("claimed_at")
        .values_list("pk", "claimed_at")[:BATCH]
    )


# -- what an email tells ----------------------------------------------------------


@dataclass(frozen=True)
class TurnNews:
    """A person's pending turn: what they need to decide to come back."""

    match: Match
    seat: Seat
    opponents: list[str]
    happened: list[str]  # the log since their last move, with names, as their seat sees it
    earlier: int  # how many older events since then are left out
    time_left: timedelta | None  # None: no time limit

    @property
    def time_left_words(self) -> str:
        return "no time limit" if self.time_left is None else clocks.left_in_words(self.time_left)


def turn_news(seat: Seat, now: datetime) -> TurnNews:
    match = seat.match
    seats = list(match.seats.select_related("user"))
    names = seat_names(seats)
    happened, earlier = _happened_since_last_move(match, seat, names)
    return TurnNews(
        match=match,
        seat=seat,
        opponents=[name for other, name in zip(seats, names, strict=True) if other.index != seat.index],
        happened=happened,
        earlier=earlier,
        time_left=clocks.left(seat.deadline_at, now),
    )


def _happened_since_last_move(match: Match, seat: Seat, names: list[str]) -> tuple[list[str], int]:
    """The seat's own view of the log from just after its player's last move (from the
    start if they have not moved yet), the newest ``LOG_LINES`` of it, and how many
    older lines were left out. Log entries carry no ply, so the log's length after that
    move comes from replaying the match up to it, server side, as every move was played."""
    game = match.engine
    log = game.view(match.decoded_state(), seat.index)["log"]
    seen = _log_length_after_last_move(match, seat)
    since = log[seen if seen <= len(log) else 0 :]
    lines = [render_text(str(item.get("text", "")), names, seat.index) for item in since]
    shown = lines[-LOG_LINES:]
    return shown, len(lines) - len(shown)


def _log_length_after_last_move(match: Match, seat: Seat) -> int:
    last = (
        match.moves.filter(seat=seat.index, user=seat.user)
        .order_by("-ply")
        .values_list("ply", flat=True)
        .first()
    )
    if last is None or match.seed is None:
        return 0
    try:
        state = replays.state_at(match, last + 1)
    except IllegalAction:
        return 0  # the match no longer replays (its rules changed): the newest lines only
    return len(match.engine.view(state, seat.index)["log"])


@dataclass(frozen=True)
class InvitationNews:
    match: Match
    inviter: str
    others: list[str]  # the other seats but the inviter's: players, bots, open seats
    time_control: str
    is_challenge: bool = False  # ``Match.is_challenge``: "Ann challenges you to a game of Go Fox!"


def invitation_news(seat: Seat) -> InvitationNews:
    match = seat.match
    seats = list(match.seats.select_related("user"))
    return InvitationNews(
        match=match,
        inviter=match.created_by.public_name,
        others=[
            other.public_name
            for other in seats
            if other.index != seat.index and other.user_id != match.created_by_id
        ],
        time_control=clocks.describe(match.turn_limit),
        is_challenge=match.is_challenge,
    )


@dataclass(frozen=True)
class TableNews:
    """A tournament table the person was seated at: who else plays there, and whether it
    is their turn already."""

    match: Match
    others: list[str]
    time_control: str
    is_my_turn: bool


def table_news(seat: Seat) -> TableNews:
    match = seat.match
    seats = list(match.seats.select_related("user"))
    names = seat_names(seats)
    return TableNews(
        match=match,
        others=[name for other, name in zip(seats, names, strict=True) if other.index != seat.index],
        time_control=clocks.describe(match.turn_limit),
        is_my_turn=seat.owes_decision,
    )


@dataclass(frozen=True)
class GameOverNews:
    match: Match
    rank: int | None
    players: int
    standings: list[tuple[int | None, str]]  # (rank, name), best first
    won_together: bool | None  # cooperative or alone: won or lost; None when places decide


def game_over_news(seat: Seat) -> GameOverNews:
    match = seat.match
    seats = list(match.seats.select_related("user"))
    names = seat_names(seats)
    standings = sorted(
        ((other.rank, name) for other, name in zip(seats, names, strict=True)),
        key=lambda pair: (pair[0] is None, pair[0] or 0),
    )
    won = None
    if match.engine.is_cooperative or len(seats) == 1:  # won or lost together, or alone: no places
        won = bool((match.result or {}).get("won"))
    return GameOverNews(
        match=match, rank=seat.rank, players=len(seats), standings=standings, won_together=won
    )


@dataclass(frozen=True)
class Waiting:
    """A match waiting for the person: their turn, or an invitation."""

    match: Match
    is_invitation: bool
    others: list[str]
    time_left: timedelta | None

    @property
    def time_left_words(self) -> str:
        return "no time limit" if self.time_left is None else clocks.left_in_words(self.time_left)


def waiting_for(user: User, now: datetime, *, turns: bool, invitations: bool) -> list[Waiting]:
    """The matches waiting for ``user`` (their turn, their invitations), the least time
    left first and those without a limit last. Turns by the (user, owes_decision) index."""
    waiting: list[Waiting] = []
    if turns:
        for seat in _with_table(
            Seat.objects.filter(
                user=user, owes_decision=True, resigned_at__isnull=True, match__status=Match.Status.RUNNING
            )
        ):
            left = clocks.left(seat.deadline_at, now) if seat.deadline_at else seat.clock_left
            waiting.append(Waiting(seat.match, False, _others(seat), left))
    if invitations:
        for seat in _with_table(
            Seat.objects.filter(user=user, joined_at__isnull=True, match__status=Match.Status.OPEN)
        ):
            waiting.append(Waiting(seat.match, True, _others(seat), None))
    return sorted(
        waiting, key=lambda item: (item.time_left is None, item.time_left or timedelta(0), item.match.pk)
    )


def _with_table(seats: QuerySet[Seat]) -> list[Seat]:
    return list(seats.select_related("match", "match__created_by").prefetch_related("match__seats__user"))


def _others(seat: Seat) -> list[str]:
    return [other.public_name for other in seat.match.seats.all() if other.index != seat.index]
