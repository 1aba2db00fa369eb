"""The review's links on the core's pages (games/feature_links.py's hooks): under a
finished match's title (``MATCH_LINKS``), an invitation to the players who made
decisions of their own, or their review once asked for; nothing while it runs, nothing
to others. The same hook puts it in the "match over" email (tests/games/notify)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client

from accounts.models import User
from games.models import Match
from games.review import services
from games.services import match_resign
from tests.games.helpers import logged_in

pytestmark = pytest.mark.django_db

INVITATION = 'id="match-review-link">Review your decisions</a>'


def header_of(client: Client, match: Match) -> str:
    """The part of the match page swapped in when the match ends (match.js fetches it)."""
    html = client.get(f"/matches/{match.pk}/").content.decode()
    return html[html.index('id="match-header-live"') : html.index('class="match-layout"')]


def test_a_finished_match_invites_its_players_to_review_their_decisions(
    finished: Match, duel: Match, ann: User, make_person: Callable[..., User]
) -> None:
    mine = header_of(logged_in(ann), finished)
    assert f'<a href="/matches/{finished.pk}/review" {INVITATION}' in mine
    assert "the expert bot grades each of them" in mine
    # Once asked for, the link is to the review itself.
    services.review_request(match_id=finished.pk, user=ann)
    seen = header_of(logged_in(ann), finished)
    assert f'<a href="/matches/{finished.pk}/review" id="match-review-link">See your review</a>' in seen
    # Nothing for a stranger or a visitor: a review is a player's own.
    assert "match-review-link" not in header_of(logged_in(make_person("carl")), finished)
    assert "match-review-link" not in header_of(Client(), finished)


def test_no_link_while_the_match_runs_nor_for_a_player_without_a_decision(
    duel: Match, ann: User, bob: User
) -> None:
    assert "match-review-link" not in header_of(logged_in(ann), duel)
    match_resign(match_id=duel.pk, user=bob)  # before anyone moved
    assert "match-review-link" not in header_of(logged_in(ann), duel)
