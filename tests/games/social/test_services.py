"""Follows, blocks and challenges through their services: idempotent buttons, the
block's reach (invitations, challenges, follows), and every refusal writing nothing."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import User
from games import blocks
from games.errors import ErrorCode, MatchError
from games.models import Match, Seat
from games.services import SeatRequest, match_create, match_join, match_rematch, match_resign
from games.social import selectors, services
from games.social.models import Block, Follow

pytestmark = pytest.mark.django_db


def refused(code: str, call: object, *args: object, **kwargs: object) -> str:
    """Calls ``call``, which must refuse with ``code``; the message, for the test to read."""
    assert callable(call)
    with pytest.raises(MatchError) as caught:
        call(*args, **kwargs)
    assert caught.value.code == code, str(caught.value)
    return str(caught.value)


def bot(level: str = "basic") -> User:
    return User.objects.get(username=f"bot-{level}")


# -- follows -----------------------------------------------------------------------------


def test_following_and_unfollowing_twice_changes_nothing_the_second_time(ann: User, bob: User) -> None:
    services.follow(follower=ann, followed=bob)
    services.follow(follower=ann, followed=bob)
    assert list(Follow.objects.values_list("follower__username", "followed__username")) == [("ann", "bob")]
    assert not selectors.relation(bob, ann).following  # one-sided
    services.unfollow(follower=ann, followed=bob)
    services.unfollow(follower=ann, followed=bob)
    assert not Follow.objects.exists()


def test_nobody_follows_themselves_a_bot_or_across_a_block(ann: User, bob: User, cat: User) -> None:
    assert (
        refused(ErrorCode.NOT_ALLOWED, services.follow, follower=ann, followed=ann)
        == "You cannot follow yourself."
    )
    refused(ErrorCode.NOT_ALLOWED, services.follow, follower=ann, followed=bot())
    refused(ErrorCode.NOT_ALLOWED, services.follow, follower=bot(), followed=ann)
    services.block(blocker=bob, blocked=ann)
    message = refused(ErrorCode.BLOCKED, services.follow, follower=ann, followed=bob)
    assert message == "You cannot follow Bob: they have blocked you."
    message = refused(ErrorCode.BLOCKED, services.follow, follower=bob, followed=ann)
    assert message == "You blocked Ann: unblock them first to follow them."
    assert not Follow.objects.exists()
    services.follow(follower=ann, followed=cat)  # a block is between two people only
    assert Follow.objects.count() == 1


# -- blocks -------------------------------------------------------------------------------


def test_a_block_is_idempotent_parts_follows_both_ways_and_only_its_maker_lifts_it(
    ann: User, bob: User, cat: User
) -> None:
    services.follow(follower=ann, followed=bob)
    services.follow(follower=bob, followed=ann)
    services.follow(follower=cat, followed=bob)
    services.block(blocker=ann, blocked=bob)
    services.block(blocker=ann, blocked=bob)
    assert list(Block.objects.values_list("blocker__username", "blocked__username")) == [("ann", "bob")]
    assert list(Follow.objects.values_list("follower__username", "followed__username")) == [("cat", "bob")]
    assert blocks.blocked_with(ann.pk) == {bob.pk} and blocks.blocked_with(bob.pk) == {ann.pk}
    assert blocks.blocked_with(cat.pk) == set()
    services.unblock(blocker=bob, blocked=ann)  # Bob blocked nobody: Ann's block stands
    assert blocks.blocked_with(bob.pk) == {ann.pk}
    services.unblock(blocker=ann, blocked=bob)
    services.unblock(blocker=ann, blocked=bob)
    assert blocks.blocked_with(ann.pk) == set()
    assert list(Follow.objects.values_list("follower__username", "followed__username")) == [("cat", "bob")]


def test_nobody_blocks_themselves_or_a_bot(ann: User) -> None:
    refused(ErrorCode.NOT_ALLOWED, services.block, blocker=ann, blocked=ann)
    refused(ErrorCode.NOT_ALLOWED, services.block, blocker=ann, blocked=bot())
    assert not Block.objects.exists()


def test_a_block_declines_the_open_invitations_between_the_two_either_way(
    ann: User, bob: User, cat: User
) -> None:
    from_bob = services.challenge(
        challenger=bob, challenged=ann, game_slug="go-fox", options=None, turn_limit=None
    )
    from_ann = services.challenge(
        challenger=ann, challenged=bob, game_slug="go-fox", options=None, turn_limit=None
    )
    to_cat = services.challenge(
        challenger=ann, challenged=cat, game_slug="go-fox", options=None, turn_limit=None
    )
    services.block(blocker=ann, blocked=bob)
    # Each invitation between them is declined as its invitee would: the seat opens.
    assert not Seat.objects.filter(user=ann, match=from_bob).exists()
    assert not Seat.objects.filter(user=bob, match=from_ann).exists()
    assert Seat.objects.filter(match=from_bob, user__isnull=True).count() == 1
    assert Seat.objects.filter(user=cat, match=to_cat, joined_at__isnull=True).exists()  # Cat's stays


# -- challenges ---------------------------------------------------------------------------


def test_a_challenge_is_a_private_match_of_two_with_the_challenged_invited_and_the_game_s_defaults(
    ann: User, bob: User
) -> None:
    match = services.challenge(
        challenger=ann, challenged=bob, game_slug="ka-blam", options={"target": 30}, turn_limit=3600
    )
    assert match.visibility == Match.Visibility.PRIVATE and match.status == Match.Status.OPEN
    assert match.turn_limit == 3600
    assert match.options["target"] == 30 and match.options["length"] == "long"  # the default filled in
    seats = list(match.seats.order_by("index"))
    assert [(seat.user, seat.joined_at is not None) for seat in seats] == [(ann, True), (bob, False)]
    assert Match.objects.get(pk=match.pk).is_challenge
    match_join(match_id=match.pk, user=bob)  # accepting is joining: the match starts
    match = Match.objects.get(pk=match.pk)
    assert match.status == Match.Status.RUNNING and not match.is_challenge


def test_a_public_invitation_or_one_to_several_is_no_challenge(ann: User, bob: User, cat: User) -> None:
    public = match_create(
        creator=ann,
        game_slug="go-fox",
        options={},
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
    )
    several = match_create(
        creator=ann, game_slug="go-fox", options={}, visibility=Match.Visibility.PRIVATE,
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob"), SeatRequest("invite", username="cat")],
    )  # fmt: skip
    assert not public.is_challenge and not several.is_challenge


def test_bad_challenges_are_refused_by_name_and_write_nothing(ann: User, bob: User) -> None:
    def challenge(**overrides: object) -> str:
        given: dict[str, object] = {
            "challenger": ann,
            "challenged": bob,
            "game_slug": "ka-blam",
            "options": None,
            "turn_limit": None,
        }
        given.update(overrides)
        with pytest.raises(MatchError) as caught:
            services.challenge(**given)  # type: ignore[arg-type]
        return f"{caught.value.code}: {caught.value}"

    assert challenge(challenged=ann) == "not_allowed: You cannot challenge yourself."
    assert (
        challenge(options={"target": 999})
        == "bad_option: The option 'target' must be between 10 and 300, not 999."
    )
    assert challenge(options={"speed": 1}) == "unknown_option: This game has no option speed."
    assert challenge(game_slug="chess") == "no_such_game: There is no such game."
    assert challenge(turn_limit=17).startswith("bad_turn_limit: ")
    assert challenge(challenger=bot()) == "not_allowed: This account cannot challenge anyone."
    assert not Match.objects.exists()


def test_a_block_either_way_refuses_a_challenge_and_a_lobby_invitation(ann: User, bob: User) -> None:
    services.block(blocker=bob, blocked=ann)
    message = refused(
        ErrorCode.BLOCKED,
        services.challenge,
        challenger=ann,
        challenged=bob,
        game_slug="go-fox",
        options=None,
        turn_limit=None,
    )
    assert message == "You cannot challenge Bob: they have blocked you."
    message = refused(
        ErrorCode.BLOCKED,
        services.challenge,
        challenger=bob,
        challenged=ann,
        game_slug="go-fox",
        options=None,
        turn_limit=None,
    )
    assert message == "You blocked Ann: unblock them first to challenge them."
    # The lobby's invitation (the core's BLOCKS hook), either way.
    for creator, guest in ((ann, "bob"), (bob, "ann")):
        message = refused(
            ErrorCode.BLOCKED, match_create, creator=creator, game_slug="go-fox", options={},
            seats=[SeatRequest("me"), SeatRequest("invite", username=guest)],
        )  # fmt: skip
        assert "one of you has blocked the other" in message
    assert not Match.objects.exists()


def test_a_block_refuses_a_rematch_but_not_a_table_seated_at_once(ann: User, bob: User) -> None:
    match = services.challenge(
        challenger=ann, challenged=bob, game_slug="go-fox", options=None, turn_limit=None
    )
    match_join(match_id=match.pk, user=bob)
    match_resign(match_id=match.pk, user=bob)
    services.block(blocker=bob, blocked=ann)
    refused(ErrorCode.BLOCKED, match_rematch, match_id=match.pk, user=ann)
    assert Match.objects.count() == 1


def test_a_person_has_at_most_three_unanswered_challenges_from_one_challenger(
    ann: User, bob: User, cat: User
) -> None:
    for _ in range(services.OPEN_CHALLENGES_PER_PERSON):
        services.challenge(challenger=ann, challenged=bob, game_slug="go-fox", options=None, turn_limit=None)
    message = refused(
        ErrorCode.TOO_MANY_CHALLENGES,
        services.challenge,
        challenger=ann,
        challenged=bob,
        game_slug="go-fox",
        options=None,
        turn_limit=None,
    )
    assert message.startswith("Bob has 3 of your invitations to answer already")
    services.challenge(challenger=cat, challenged=bob, game_slug="go-fox", options=None, turn_limit=None)
    assert Match.objects.count() == 4


def test_challenging_a_bot_starts_the_match_at_once_in_a_game_its_level_plays(ann: User) -> None:
    match = services.challenge(
        challenger=ann, challenged=bot("basic"), game_slug="go-fox", options=None, turn_limit=None
    )
    match.refresh_from_db()
    assert match.status == Match.Status.RUNNING
    assert [seat.user for seat in match.seats.order_by("index")] == [ann, bot("basic")]


def test_the_core_reads_blocks_only_through_its_hook(settings: Any, ann: User, bob: User) -> None:
    services.block(blocker=bob, blocked=ann)
    settings.BLOCKS = []  # no feature says who blocked whom: the core knows of no block
    assert blocks.blocked_with(ann.pk) == set()
    match_create(
        creator=ann,
        game_slug="go-fox",
        options={},
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
    )
    assert Match.objects.count() == 1


def test_an_open_seat_is_no_way_round_a_block_with_the_match_s_creator(
    ann: User, bob: User, cat: User
) -> None:
    public = match_create(
        creator=ann, game_slug="go-fox", options={}, seats=[SeatRequest("me"), SeatRequest("open")]
    )
    services.block(blocker=ann, blocked=bob)
    message = refused(ErrorCode.BLOCKED, match_join, match_id=public.pk, user=bob)
    assert message == "You cannot join Ann's match: one of you has blocked the other."
    assert not Seat.objects.filter(user=bob).exists()
    match_join(match_id=public.pk, user=cat)  # anyone else sits down
    assert Match.objects.get(pk=public.pk).status == Match.Status.RUNNING
