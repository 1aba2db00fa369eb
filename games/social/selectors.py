"""Reads of follows and blocks, for the profile, the home page's sections and the core's
``BLOCKS`` hook. Each is a fixed number of queries (and at most one Redis round trip
for who is online: ``games.live.presence.online_among``) however many people are read."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import AnonymousUser
from django.contrib.humanize.templatetags.humanize import ordinal
from django.db.models import Exists, Prefetch, Q, QuerySet

from accounts.models import User
from games.live.presence import online_among
from games.models import Match, Seat
from games.social.models import Block, Follow

# The home page's lists: a glance, not a directory (the profile lists everyone followed).
FRIENDS_ONLINE_SHOWN = 10
FRIENDS_RESULTS_SHOWN = 5


def blocked_with(user_id: int) -> set[int]:
    """The people ``user_id`` blocked or was blocked by: ``settings.BLOCKS`` (games/blocks.py).
    One query, by the two indexes."""
    pairs = Block.objects.filter(Q(blocker_id=user_id) | Q(blocked_id=user_id)).values_list(
        "blocker_id", "blocked_id"
    )
    return {blocked if blocker == user_id else blocker for blocker, blocked in pairs}


@dataclass(frozen=True)
class Relation:
    """What a signed-in ``viewer`` is to the ``player`` whose profile they look at."""

    following: bool  # the viewer follows the player
    blocking: bool  # the viewer blocked the player
    blocked_by: bool  # the player blocked the viewer
    online: bool  # the player is on the site now (not told across a block)

    @property
    def kept_apart(self) -> bool:
        return self.blocking or self.blocked_by


def relation(viewer: User, player: User) -> Relation:
    """One query (three answers, as subqueries) and a Redis read."""
    found = (
        User.objects.filter(pk=player.pk)
        .annotate(
            following=Exists(Follow.objects.filter(follower=viewer, followed=player)),
            blocking=Exists(Block.objects.filter(blocker=viewer, blocked=player)),
            blocked_by=Exists(Block.objects.filter(blocker=player, blocked=viewer)),
        )
        .values("following", "blocking", "blocked_by")
        .first()
    ) or {"following": False, "blocking": False, "blocked_by": False}
    kept_apart = found["blocking"] or found["blocked_by"]
    online = not kept_apart and not player.is_bot and player.pk in online_among([player.pk])
    return Relation(
        following=found["following"],
        blocking=found["blocking"],
        blocked_by=found["blocked_by"],
        online=online,
    )


@dataclass(frozen=True)
class Person:
    """Someone in a list: followed or blocked, whether they are online (followed only)."""

    user: User
    online: bool = False


def _followed(user: User) -> QuerySet[Follow]:
    """Whom ``user`` follows, leaving out anyone blocked either way (a block removes the
    follows as it is made; this keeps the lists right whatever happened between)."""
    return (
        Follow.objects.filter(follower=user, followed__is_active=True)
        .exclude(followed_id__in=Block.objects.filter(blocker=user).values("blocked_id"))
        .exclude(followed_id__in=Block.objects.filter(blocked=user).values("blocker_id"))
    )


def following(user: User) -> list[Person]:
    """Everyone ``user`` follows, online first, then by name: one query and one Redis read."""
    people = [
        follow.followed
        for follow in _followed(user).select_related("followed").order_by("followed__username")
    ]
    online = online_among(person.pk for person in people)
    listed = [Person(user=person, online=person.pk in online) for person in people]
    return sorted(listed, key=lambda person: (not person.online, person.user.public_name.casefold()))


def blocked_by_me(user: User) -> list[User]:
    """The people ``user`` blocked, by name (for lifting a block): one query."""
    return [
        block.blocked
        for block in Block.objects.filter(blocker=user)
        .select_related("blocked")
        .order_by("blocked__username")
    ]


def friends_online(user: User | AnonymousUser) -> list[User]:
    """The people ``user`` follows who are online now, by name, the first
    ``FRIENDS_ONLINE_SHOWN``: one query and one Redis read."""
    if not isinstance(user, User):
        return []
    people = [follow.followed for follow in _followed(user).select_related("followed")]
    online = online_among(person.pk for person in people)
    shown = sorted(
        (person for person in people if person.pk in online), key=lambda p: p.public_name.casefold()
    )
    return shown[:FRIENDS_ONLINE_SHOWN]


@dataclass(frozen=True)
class FriendResult:
    """A finished public match of someone followed: how each followed player in it did."""

    match: Match
    friends: list[tuple[str, str]]  # (name, how they did: "won", "came 2nd of 3", ...)
    others: list[str]  # the other seats' names
    finished_at: datetime


def friends_results(user: User | AnonymousUser) -> list[FriendResult]:
    """The latest finished public matches of the people ``user`` follows, newest first,
    ``FRIENDS_RESULTS_SHOWN`` at most: three queries (whom, the matches, their seats)."""
    if not isinstance(user, User):
        return []
    friend_ids = set(_followed(user).values_list("followed_id", flat=True))
    if not friend_ids:
        return []
    matches = (
        Match.objects.filter(
            status=Match.Status.FINISHED,
            visibility=Match.Visibility.PUBLIC,
            pk__in=Seat.objects.filter(user_id__in=friend_ids).values("match_id"),
        )
        .exclude(finished_at=None)
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .order_by("-finished_at", "-pk")[:FRIENDS_RESULTS_SHOWN]
    )
    results = []
    for match in matches:
        seats = list(match.seats.all())
        assert match.finished_at is not None
        results.append(
            FriendResult(
                match=match,
                friends=[
                    (seat.public_name, how_they_did(match, seat, seats))
                    for seat in seats
                    if seat.user_id in friend_ids
                ],
                others=[seat.public_name for seat in seats if seat.user_id not in friend_ids],
                finished_at=match.finished_at,
            )
        )
    return results


def how_they_did(match: Match, seat: Seat, seats: list[Seat]) -> str:
    """A seat's result in a few words, as History counts it: the result's word where it
    has one (cooperative games, solitaire); else out (resigned, on time) is a loss, rank 1
    alone a win, rank 1 shared a shared first place, and any other a place ("came 2nd of 3")."""
    result = match.result or {}
    if "won" in result:
        return "won" if result["won"] else "lost"
    if seat.resigned_at is not None:
        return "lost"
    if seat.rank is None:
        return "played"
    if seat.rank == 1:
        shared = any(other.rank == 1 and other.pk != seat.pk for other in seats)
        return "shared first place" if shared else "won"
    return f"came {ordinal(seat.rank)} of {len(seats)}"
