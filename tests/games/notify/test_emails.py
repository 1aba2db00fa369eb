"""The notification emails themselves (games/notify/emails.py): from the site, HTML and
plain text, links only to SITE_URL, a one-click unsubscribe for their own kind
(RFC 8058) and marked as sent by a machine (RFC 3834). Read from where they really
went: the file outbox and a real SMTP server."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from email.message import Message

import pytest
import time_machine
from django.conf import settings

from accounts.models import User
from accounts.services import user_update_notifications
from games.models import Match, Move
from games.notify import tokens
from games.notify.tasks import match_finished
from games.services import SeatRequest, match_create, match_join, match_resign
from tests.games.helpers import until_turn_passes
from tests.games.notify.helpers import (
    SITE_URL,
    Mailbox,
    Outbox,
    header,
    html_of,
    links_in,
    sweep,
    text_of,
    to,
    until_turn_of,
)

pytestmark = pytest.mark.django_db

MORNING = datetime(2026, 12, 1, 7, 0, tzinfo=UTC)
UNSUBSCRIBE = re.compile(rf"^<{re.escape(SITE_URL)}/notify/unsubscribe/([^/]+)/>$")


def every_kind(
    mailbox: Mailbox, ann: User, bob: User, make_person: Callable[..., User]
) -> dict[str, Message]:
    """A morning that makes one email of each kind; the emails by kind."""
    carol, dan = make_person("carol", display_name="Carol"), make_person("dan")
    with time_machine.travel(MORNING, tick=False):
        user_update_notifications(
            user=dan, turn="digest", invitation="digest", game_over="each", digest_hour=8
        )
        duel = match_create(
            creator=ann, game_slug="go-fox", options={}, turn_limit=3600,
            seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
        )  # fmt: skip
        match_join(match_id=duel.pk, user=bob)
        until_turn_of(duel, ann)
        match_create(  # an invitation for Carol, and one for Dan's digest
            creator=ann, game_slug="go-fox", options={},
            seats=[SeatRequest("me"), SeatRequest("invite", username="carol")],
        )  # fmt: skip
        match_create(
            creator=bob, game_slug="ka-blam", options={},
            seats=[SeatRequest("me"), SeatRequest("invite", username="dan")],
        )  # fmt: skip
    with time_machine.travel(MORNING + timedelta(minutes=15), tick=False):
        assert sweep() == {"turn sent": 1, "invitation sent": 1, "invitation skipped": 1}
    with time_machine.travel(MORNING + timedelta(minutes=50), tick=False):
        assert sweep() == {"alarm sent": 1}
    with time_machine.travel(MORNING + timedelta(hours=1, seconds=1), tick=False):
        assert sweep() == {"digest sent": 1}
        match_resign(match_id=duel.pk, user=bob)
        assert match_finished(duel.pk) == 2
    mails = mailbox.mails()
    assert sorted(to(mail) for mail in mails) == sorted([*[ann.email] * 3, bob.email, carol.email, dan.email])
    return {kind_of(mail): mail for mail in mails if to(mail) != bob.email}


def kind_of(mail: Message) -> str:
    found = UNSUBSCRIBE.match(header(mail, "List-Unsubscribe"))
    assert found, header(mail, "List-Unsubscribe")
    return tokens.read(found.group(1))[1]


def test_every_email_has_both_parts_the_headers_and_only_links_to_the_site(
    mailbox: Mailbox, ann: User, bob: User, make_person: Callable[..., User]
) -> None:
    by_kind = every_kind(mailbox, ann, bob, make_person)
    assert sorted(by_kind) == ["alarm", "digest", "game_over", "invitation", "turn"]
    for kind, mail in by_kind.items():
        assert mail["From"] == settings.DEFAULT_FROM_EMAIL, kind
        assert mail["Auto-Submitted"] == "auto-generated", kind
        assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click", kind
        assert UNSUBSCRIBE.match(header(mail, "List-Unsubscribe")), kind
        assert mail["Subject"].startswith("[Boomsite] "), kind
        assert mail.get_content_type() == "multipart/alternative", kind
        assert [part.get_content_type() for part in mail.get_payload()] == ["text/plain", "text/html"], kind  # type: ignore[union-attr]
        text, html = text_of(mail), html_of(mail)
        for link in links_in(text) + links_in(html):
            assert link.startswith(f"{SITE_URL}/"), (kind, link)
        # The one-click link is in the body too, for people (and the header's is the same).
        one_click = header(mail, "List-Unsubscribe")[1:-1]
        assert one_click in text and one_click in html


def test_the_turn_email_names_the_game_the_opponent_the_time_left_and_links_the_match(
    mailbox: Mailbox, ann: User, bob: User, make_person: Callable[..., User]
) -> None:
    turn = every_kind(mailbox, ann, bob, make_person)["turn"]
    match = Match.objects.filter(game="go-fox", turn_limit=3600).get()
    text, html = text_of(turn), html_of(turn)
    assert turn["Subject"] == "[Boomsite] Your turn in Go Fox! with Bob"
    assert text.startswith("Hello Ann,\n\nIt is your turn in Go Fox! with Bob.")
    assert "Since your last move:" in text and "Bob asked you for" in text
    assert "Time left: 45 minutes" in text  # 15 minutes into an hour's turn
    assert f"Play your turn: {SITE_URL}/matches/{match.pk}/" in text
    assert f'href="{SITE_URL}/matches/{match.pk}/"' in html and ">Play your turn</a>" in html
    assert "<li>Bob asked you for" in html


def test_the_digest_lists_what_waits_and_links_each_match(
    mailbox: Mailbox, ann: User, bob: User, make_person: Callable[..., User]
) -> None:
    digest = every_kind(mailbox, ann, bob, make_person)["digest"]
    invitation = Match.objects.get(game="ka-blam")
    assert digest["Subject"] == "[Boomsite] 1 match waiting for you"
    text = text_of(digest)
    assert "Your daily digest for Tuesday 1 December: 1 match waiting for you" in text
    assert f"- Invitation: Ka-Blam! with Bob\n  {SITE_URL}/matches/{invitation.pk}/" in text


def test_the_match_over_email_invites_a_player_to_review_their_decisions(
    outbox: Outbox, ann: User, bob: User
) -> None:
    """What features offer about the match (games/feature_links.py, ``MATCH_LINKS``) is
    in the email as on its page: the post-game review, for the player who made moves."""
    duel = match_create(
        creator=ann, game_slug="go-fox", options={},
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
    )  # fmt: skip
    match_join(match_id=duel.pk, user=bob)
    until_turn_of(duel, ann)
    until_turn_passes(duel)  # Ann's move
    match_resign(match_id=duel.pk, user=bob)
    assert match_finished(duel.pk) == 2
    sent = {to(mail): mail for mail in outbox.mails()}
    review = f"{SITE_URL}/matches/{duel.pk}/review"
    assert f"Review your decisions: {review}\n" in text_of(sent[ann.email])
    assert f'<a href="{review}">Review your decisions</a>' in html_of(sent[ann.email])
    # Bob's email invites him only if he moved before he resigned (who starts is dealt).
    bob_moved = Move.objects.filter(match=duel, user=bob).exists()
    assert ("Review your decisions" in text_of(sent[bob.email])) == bob_moved
