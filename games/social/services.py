"""Every write of follows, blocks and challenges. Each refuses with a ``MatchError``
(a stable ``ErrorCode`` and a message for people) and then has written nothing.

Following and blocking are idempotent: following someone followed already, or
unfollowing someone not followed, changes nothing and is no error (two tabs, a
button pressed twice).
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q

from accounts.models import User
from games.bots import levels_for
from games.errors import ErrorCode, MatchError
from games.models import Match, Seat
from games.services import PlacedSeat, bot_account, match_create_seated, match_decline
from games.services.common import engine_for
from games.social.models import Block, Follow

# Challenges from one person to another waiting for their answer at once: enough for a
# few games in parallel, not a flood of invitations in someone's list.
OPEN_CHALLENGES_PER_PERSON = 3


def _refuse_unless_person(user: User, doing: str) -> None:
    if user.is_bot or not user.is_active:
        raise MatchError(ErrorCode.NOT_ALLOWED, f"This account cannot {doing}.")


def _blocks_between(one: User, other: User) -> set[int]:
    """The blockers among the two (empty: neither blocked the other)."""
    return set(
        Block.objects.filter(Q(blocker=one, blocked=other) | Q(blocker=other, blocked=one)).values_list(
            "blocker_id", flat=True
        )
    )


def _refuse_blocked(actor: User, other: User, doing: str) -> None:
    blockers = _blocks_between(actor, other)
    if actor.pk in blockers:
        raise MatchError(
            ErrorCode.BLOCKED, f"You blocked {other.public_name}: unblock them first to {doing} them."
        )
    if other.pk in blockers:
        raise MatchError(ErrorCode.BLOCKED, f"You cannot {doing} {other.public_name}: they have blocked you.")


def follow(*, follower: User, followed: User) -> None:
    """``follower`` follows ``followed`` (nothing changes if they do already). Refused for
    oneself, a bot (its games are on its profile, and it is always "there"), a closed
    account, and across a block either way."""
    _refuse_unless_person(follower, "follow anyone")
    if followed.pk == follower.pk:
        raise MatchError(ErrorCode.NOT_ALLOWED, "You cannot follow yourself.")
    if followed.is_bot or not followed.is_active:
        raise MatchError(ErrorCode.NOT_ALLOWED, f"{followed.public_name} cannot be followed.")
    _refuse_blocked(follower, followed, "follow")
    try:
        with transaction.atomic():
            Follow.objects.get_or_create(follower=follower, followed=followed)
    except IntegrityError:
        pass  # followed in the same instant from another tab: followed it is


def unfollow(*, follower: User, followed: User) -> None:
    """``follower`` no longer follows ``followed`` (nothing changes if they did not)."""
    Follow.objects.filter(follower=follower, followed=followed).delete()


def block(*, blocker: User, blocked: User) -> None:
    """``blocker`` blocks ``blocked`` (nothing more changes if they had already).

    **Decision**: a block parts the two at once and both ways: the follows between them
    are removed, either way (neither sees the other among friends), and every
    invitation still open between them is declined as its invitee would (their seat
    becomes open: ``match_decline``), so a challenge from the blocked person leaves the
    blocker's list, and one the blocker sent can no longer be accepted. Lifting the
    block brings none of it back."""
    _refuse_unless_person(blocker, "block anyone")
    if blocked.pk == blocker.pk:
        raise MatchError(ErrorCode.NOT_ALLOWED, "You cannot block yourself.")
    if blocked.is_bot:
        raise MatchError(
            ErrorCode.NOT_ALLOWED, "Bots send no invitations and never chat: there is nothing to block."
        )
    with transaction.atomic():
        try:
            with transaction.atomic():
                Block.objects.get_or_create(blocker=blocker, blocked=blocked)
        except IntegrityError:
            pass  # blocked in the same instant from another tab
        Follow.objects.filter(
            Q(follower=blocker, followed=blocked) | Q(follower=blocked, followed=blocker)
        ).delete()
        for invitee, match_id in _open_invitations_between(blocker, blocked):
            match_decline(match_id=match_id, user=invitee)


def _open_invitations_between(one: User, other: User) -> list[tuple[User, int]]:
    """(invitee, match id) of each unanswered invitation between the two, either way."""
    seats = Seat.objects.filter(
        Q(user=one, match__created_by=other) | Q(user=other, match__created_by=one),
        joined_at__isnull=True,
        match__status=Match.Status.OPEN,
    ).values_list("user_id", "match_id")
    people = {one.pk: one, other.pk: other}
    return [(people[user_id], match_id) for user_id, match_id in seats]


def unblock(*, blocker: User, blocked: User) -> None:
    """``blocker`` lifts their block of ``blocked`` (nothing changes if there was none).
    A block the other made stands."""
    Block.objects.filter(blocker=blocker, blocked=blocked).delete()


def challenge(
    *,
    challenger: User,
    challenged: User,
    game_slug: str,
    options: dict[str, Any] | None,
    turn_limit: int | None,
) -> Match:
    """A challenge: a new private match of two, ``challenger`` seated and ``challenged``
    invited (``Match.is_challenge``), with the game's options (its defaults for those
    left out) and time control. It is answered as any invitation: accepted by joining
    (the match starts), declined by declining; its email says "challenges you".

    **Decision**: a bot is challenged by playing it: its seat is taken at once and the
    match starts, if its level plays the game (else refused, naming the game).

    Refused: oneself, a closed account, a block either way (naming who blocked),
    more than ``OPEN_CHALLENGES_PER_PERSON`` unanswered challenges to the same person,
    and whatever the match itself refuses (an unknown game, a bad option named, a time
    control that is none of the site's)."""
    _refuse_unless_person(challenger, "challenge anyone")
    if challenged.pk == challenger.pk:
        raise MatchError(ErrorCode.NOT_ALLOWED, "You cannot challenge yourself.")
    if not challenged.is_active:
        raise MatchError(ErrorCode.NO_SUCH_PLAYER, "There is no such player.")
    game = engine_for(game_slug)
    if challenged.is_bot:
        if challenged.bot_level not in levels_for(game):
            raise MatchError(ErrorCode.NO_SUCH_BOT, f"{challenged.public_name} does not play {game.name}.")
        opponent = PlacedSeat(bot_account(challenged.bot_level, game), joined=True)
    else:
        _refuse_blocked(challenger, challenged, "challenge")
        waiting = Seat.objects.filter(
            user=challenged,
            joined_at__isnull=True,
            match__status=Match.Status.OPEN,
            match__created_by=challenger,
        ).count()
        if waiting >= OPEN_CHALLENGES_PER_PERSON:
            raise MatchError(
                ErrorCode.TOO_MANY_CHALLENGES,
                f"{challenged.public_name} has {waiting} of your invitations to answer already: "
                "wait for an answer, or cancel one.",
            )
        opponent = PlacedSeat(challenged, joined=False)
    return match_create_seated(
        created_by=challenger,
        game_slug=game.slug,
        options=options,
        seats=[PlacedSeat(challenger, joined=True), opponent],
        visibility=Match.Visibility.PRIVATE,
        turn_limit=turn_limit,
    )
