"""What a program's event stream says (``/api/stream/events``, docs/api.md "Streams"):
the matches of one person, read from the database, and what changed since the stream
last read them.

The stream wakes on its person's doorbell (``broadcast.person_group``, which every
change to a match they are seated or invited at rings after its commit), then reads
everything that concerns them afresh (``read_mine``: two queries, whatever the
number of matches) and says only what it has not said: ``Told`` keeps, per stream,
what it said of each match that is still news. A ring carries nothing, so a ring
missed or merged with another loses nothing, and one read twice says nothing twice.
The first read (as the stream opens) says what is waiting now: every invitation, every
running match, every turn.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db.models import Prefetch, Q, prefetch_related_objects
from django.urls import reverse

from accounts.models import User
from games.models import Match, Seat
from games.scores_json import result_json

ACTIVE = (Match.Status.OPEN, Match.Status.RUNNING)
ENDED = (Match.Status.FINISHED, Match.Status.CANCELLED)


@dataclass(frozen=True)
class Mine:
    """A match the person has a seat at (taken or invited to), with every seat of it."""

    match: Match  # without its state; its seats (with their users) prefetched
    seat: Seat  # the person's own

    @property
    def invited(self) -> bool:
        """An invitation waiting for the person's answer."""
        return self.seat.joined_at is None and self.match.status == Match.Status.OPEN

    @property
    def joined(self) -> bool:
        return self.seat.joined_at is not None

    @property
    def running(self) -> bool:
        return self.joined and self.match.status == Match.Status.RUNNING

    @property
    def my_turn(self) -> bool:
        """The person owes a decision now (``selectors.MY_TURN``, the badge's)."""
        return self.running and self.seat.owes_decision and self.seat.resigned_at is None

    def unanswered(self) -> dict[int, str]:
        """The people invited to a waiting match the person made, who have not answered
        yet (user id -> username)."""
        if self.match.status != Match.Status.OPEN or self.match.created_by_id != self.seat.user_id:
            return {}
        return {
            seat.user.pk: seat.user.username
            for seat in self.match.seats.all()
            if seat.user is not None and seat.joined_at is None
        }

    def joined_users(self) -> set[int]:
        return {
            seat.user_id for seat in self.match.seats.all() if seat.user_id is not None and seat.joined_at
        }


def read_mine(user: User, also: Iterable[int] = ()) -> list[Mine]:
    """The matches waiting for players or running that ``user`` has a seat at, and those
    of ``also`` (the ones a stream follows) whatever they became: two queries."""
    seats = (
        Seat.objects.filter(user=user)
        .filter(Q(match__status__in=ACTIVE) | Q(match_id__in=sorted(set(also))))
        .select_related("match", "match__created_by")
        .defer("match__state")
        .order_by("match_id")
    )
    mine = list(seats)
    matches = [seat.match for seat in mine]
    if matches:
        prefetch_related_objects(
            matches, Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("index"))
        )
    return [Mine(match=seat.match, seat=seat) for seat in mine]


def summary(mine: Mine) -> dict[str, Any]:
    """A match as every event shows it: what a program needs to decide what to do with
    it (the players, the time control, its addresses), not its view (``GET
    /api/matches/<id>`` or its stream has that)."""
    match = mine.match
    return {
        "id": match.pk,
        "game": match.game,
        "status": match.status,
        "ply": match.ply,
        "options": match.options,
        "time_control": match.turn_limit,
        "visibility": match.visibility,
        "challenge": match.is_challenge,
        "from": match.created_by.username,
        "seat": mine.seat.index,
        "players": [
            {
                "seat": seat.index,
                "username": seat.user.username if seat.user else None,
                "name": seat.public_name,
                "is_bot": bool(seat.user and seat.user.labelled_bot),  # a program's bot account too
                "answered": seat.joined_at is not None,
            }
            for seat in match.seats.all()
        ],
        "url": f"{settings.SITE_URL}{reverse('match', args=[match.pk])}",
        "stream": f"{settings.SITE_URL}{reverse('api_match', args=[match.pk])}/stream",
    }


@dataclass
class Told:
    """What one stream has said, kept only while it is still news: so each read says
    only what changed since the last, and never the same thing twice."""

    invitations: set[int] = field(default_factory=set)  # invitations to the person, told
    started: set[int] = field(default_factory=set)  # running matches, told
    turns: set[tuple[int, int]] = field(default_factory=set)  # (match, ply) of turns, told
    # Matches the person has joined that wait or run: their end is news.
    active: set[int] = field(default_factory=set)
    # The person's own waiting matches: who has not answered their invitation yet.
    unanswered: dict[int, dict[int, str]] = field(default_factory=dict)

    def following(self) -> set[int]:
        """The matches whose fate is news whatever becomes of them: read every time."""
        return self.invitations | self.active | set(self.unanswered)

    def news(self, mine: list[Mine]) -> list[dict[str, Any]]:
        """The events ``mine`` (a fresh ``read_mine``) holds that this stream has not said,
        in an order a program can act on: what went away, then what came."""
        by_id = {one.match.pk: one for one in mine}
        events: list[dict[str, Any]] = []

        invitations = {one.match.pk for one in mine if one.invited}
        for match_id in sorted(self.invitations - invitations):
            now = by_id.get(match_id)
            if now is None or not now.joined:  # declined, withdrawn, or the match is gone
                events.append({"type": "invitation_closed", "id": match_id})

        for match_id, before in sorted(self.unanswered.items()):
            now = by_id.get(match_id)
            if now is None or now.match.status != Match.Status.OPEN:
                continue  # it started (the invitation was accepted) or was cancelled
            still = now.unanswered()
            joined = now.joined_users()
            for user_id, username in sorted(before.items()):
                if user_id not in still and user_id not in joined:
                    events.append(
                        {"type": "invitation_declined", "match": summary(now), "username": username}
                    )

        for match_id in sorted(self.active):
            now = by_id.get(match_id)
            if now is not None and now.match.status in ENDED:
                events.append(
                    {
                        "type": "match_finished",
                        "match": {**summary(now), "result": result_json(now.match.result)},
                    }
                )

        for one in mine:
            if one.invited and one.match.pk not in self.invitations:
                events.append({"type": "invitation", "match": summary(one)})
        for one in mine:
            if one.running and one.match.pk not in self.started:
                events.append({"type": "match_started", "match": summary(one)})
        turns = {(one.match.pk, one.match.ply) for one in mine if one.my_turn}
        for one in mine:
            if one.my_turn and (one.match.pk, one.match.ply) not in self.turns:
                deadline = one.seat.deadline_at
                events.append(
                    {
                        "type": "your_turn",
                        "match": summary(one),
                        "deadline": deadline.isoformat() if deadline is not None else None,
                    }
                )

        self.invitations = invitations
        self.started = {one.match.pk for one in mine if one.running}
        self.turns = turns
        self.active = {one.match.pk for one in mine if one.joined and one.match.status in ACTIVE}
        self.unanswered = {one.match.pk: who for one in mine if (who := one.unanswered())}
        return events
