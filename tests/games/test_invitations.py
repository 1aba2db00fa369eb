"""Private matches are joined through an invitation link with an unguessable token;
their plain id shows strangers nothing (ids are sequential)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games.models import Match, Seat
from games.services import MatchError, SeatRequest, match_create, match_join
from tests.games.helpers import logged_in
from tests.games.sockets import Viewer, next_of, run, socket

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def waiting(ann: User) -> Match:
    """A private Go Fox! match by Ann with one open seat."""
    return match_create(
        creator=ann,
        game_slug="go-fox",
        options={},
        visibility="private",
        seats=[SeatRequest("me"), SeatRequest("open")],
    )


def open_seats(match: Match) -> int:
    return Seat.objects.filter(match=match, user__isnull=True).count()


def test_a_stranger_guessing_the_id_finds_nothing_and_cannot_take_a_seat(
    waiting: Match, make_person: Any
) -> None:
    stranger = make_person("guesser")
    browser = logged_in(stranger)
    for path in (f"/matches/{waiting.pk}/", f"/matches/{waiting.pk}/board"):
        assert browser.get(path).status_code == 404
        assert browser.get(f"{path}?invite=not-the-token").status_code == 404
    assert browser.post(f"/matches/{waiting.pk}/join").status_code == 404
    assert browser.post(f"/matches/{waiting.pk}/join", {"invite": "not-the-token"}).status_code == 404
    with pytest.raises(MatchError) as refused:
        match_join(match_id=waiting.pk, user=stranger)
    assert refused.value.code == "no_such_match"
    viewer = Viewer(stranger)

    async def scenario() -> None:
        ws = socket(waiting.pk, viewer)
        connected, code = await ws.connect()
        assert not connected and code == 4404
        await ws.disconnect()

    run(scenario)
    assert open_seats(waiting) == 1


def test_the_invitation_link_shows_the_match_and_lets_its_holder_join(
    waiting: Match, ann: User, bob: User
) -> None:
    creator_page = logged_in(ann).get(f"/matches/{waiting.pk}/").content.decode()
    link = f"/matches/{waiting.pk}/?invite={waiting.invite_token}"
    assert link in creator_page  # the creator is given the link to share

    browser = logged_in(bob)
    page = browser.get(link)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="join-match"' in html and f'name="invite" value="{waiting.invite_token}"' in html
    assert f"/ws/matches/{waiting.pk}/?invite={waiting.invite_token}" in html  # the live part keeps it
    viewer = Viewer(bob)

    async def scenario() -> None:
        ws = socket(waiting.pk, viewer, path_suffix=f"?invite={waiting.invite_token}")
        assert (await ws.connect())[0]
        assert 'id="join-match"' in (await next_of(ws, "board"))["html"]
        await ws.disconnect()

    run(scenario)
    answer = browser.post(f"/matches/{waiting.pk}/join", {"invite": waiting.invite_token})
    assert answer.status_code == 302
    waiting.refresh_from_db()
    assert waiting.status == Match.Status.RUNNING and open_seats(waiting) == 0
    # Running now: the link shows strangers nothing any more; the players still see it.
    assert Client().get(link).status_code == 404
    assert browser.get(f"/matches/{waiting.pk}/").status_code == 200


def test_an_invited_person_needs_no_link_and_a_public_match_has_none(ann: User, bob: User) -> None:
    invited = match_create(
        creator=ann,
        game_slug="go-fox",
        options={},
        visibility="private",
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
    )
    assert logged_in(bob).get(f"/matches/{invited.pk}/").status_code == 200
    match_join(match_id=invited.pk, user=bob)
    public = match_create(
        creator=ann, game_slug="go-fox", options={}, seats=[SeatRequest("me"), SeatRequest("open")]
    )
    assert "invite-link" not in logged_in(ann).get(f"/matches/{public.pk}/").content.decode()


def test_every_match_has_its_own_long_token(waiting: Match, ann: User) -> None:
    match_create(creator=ann, game_slug="go-fox", options={}, seats=[SeatRequest("me"), SeatRequest("open")])
    tokens = list(Match.objects.values_list("invite_token", flat=True))
    assert len(set(tokens)) == len(tokens)
    assert all(len(token) >= 20 for token in tokens)


def test_declining_a_private_invitation_on_its_page_lands_on_my_matches(ann: User, bob: User) -> None:
    """A private match declined is no longer the decliner's to see: the answer went to its
    page, a 404. It lands on My matches, with the word that it was declined; a public
    match's page still follows its Decline."""
    private = match_create(
        creator=ann, game_slug="go-fox", options={}, visibility=Match.Visibility.PRIVATE,
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
    )  # fmt: skip
    answer = logged_in(bob).post(f"/matches/{private.pk}/decline", follow=True)
    assert answer.redirect_chain[-1][0] == "/matches/"
    assert answer.status_code == 200 and "You declined the invitation." in answer.content.decode()
    public = match_create(
        creator=ann, game_slug="go-fox", options={}, visibility=Match.Visibility.PUBLIC,
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
    )  # fmt: skip
    answer = logged_in(bob).post(f"/matches/{public.pk}/decline")
    assert answer["Location"] == f"/matches/{public.pk}/"
