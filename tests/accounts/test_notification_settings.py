"""Email notification preferences on the account page (accounts: forms, views,
services, ``User.next_digest_after``): per kind every time / daily digest / off, and the
digest's hour in the player's own time zone. Bad input is refused and changes nothing."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
import time_machine
from django.core.exceptions import ValidationError
from django.test import Client

from accounts.models import User
from accounts.services import user_update_notifications, user_update_settings
from tests.games.helpers import logged_in

pytestmark = pytest.mark.django_db

NOON_UTC = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
GOOD = {"notify_turn": "digest", "notify_invitation": "off", "notify_game_over": "each", "digest_hour": "7"}


def stored(user: User) -> tuple[Any, ...]:
    user.refresh_from_db()
    return (
        user.notify_turn,
        user.notify_invitation,
        user.notify_game_over,
        user.digest_hour,
        user.next_digest_at,
    )


def test_a_new_player_gets_every_email_and_no_digest(ann: User) -> None:
    assert stored(ann) == ("each", "each", "each", 8, None)
    page = logged_in(ann).get("/accounts/settings/").content.decode()
    assert 'id="notifications"' in page and 'action="/accounts/settings/notifications"' in page
    assert '<option value="each" selected>Every time</option>' in page
    assert '<option value="8" selected>08:00</option>' in page
    # Game over has no digest to offer.
    game_over = page[page.index('name="notify_game_over"') :]
    assert "digest" not in game_over[: game_over.index("</select>")]


def test_choosing_the_digest_schedules_it_at_that_hour_in_the_players_zone(ann: User) -> None:
    User.objects.filter(pk=ann.pk).update(time_zone="Asia/Tokyo")  # UTC+9
    with time_machine.travel(NOON_UTC, tick=False):
        response = logged_in(ann).post("/accounts/settings/notifications", GOOD)
    assert response.status_code == 302 and response["Location"] == "/accounts/settings/#notifications"
    # 07:00 in Tokyo on the 2nd (it is 21:00 there at noon UTC) is 22:00 UTC on the 1st.
    assert stored(ann) == ("digest", "off", "each", 7, datetime(2026, 12, 1, 22, 0, tzinfo=UTC))


def test_a_new_time_zone_moves_the_digest(ann: User) -> None:
    with time_machine.travel(NOON_UTC, tick=False):
        user_update_notifications(user=ann, turn="each", invitation="digest", game_over="off", digest_hour=8)
        assert stored(ann)[-1] == datetime(2026, 12, 2, 8, 0, tzinfo=UTC)
        user_update_settings(user=ann, display_name="", time_zone="America/New_York")  # UTC-5
        assert stored(ann)[-1] == datetime(2026, 12, 1, 13, 0, tzinfo=UTC)
        # No kind in the digest: no digest moment.
        user_update_notifications(user=ann, turn="each", invitation="each", game_over="off", digest_hour=8)
        assert stored(ann)[-1] is None


@pytest.mark.parametrize(
    "change",
    [
        {"notify_game_over": "digest"},  # not a choice for game over
        {"notify_turn": "sometimes"},
        {"digest_hour": "24"},
        {"digest_hour": "-1"},
        {"digest_hour": "eight"},
        {"notify_invitation": ""},
    ],
)
def test_bad_preferences_are_refused_clearly_and_change_nothing(ann: User, change: dict[str, str]) -> None:
    before = stored(ann)
    response = logged_in(ann).post("/accounts/settings/notifications", {**GOOD, **change})
    assert response.status_code == 400
    page = response.content.decode()
    assert "Select a valid choice" in page or "This field is required" in page
    assert stored(ann) == before


@pytest.mark.parametrize(
    "values",
    [
        {"turn": "always"},
        {"game_over": "digest"},
        {"digest_hour": 24},
        {"digest_hour": "8"},
    ],
)
def test_the_service_refuses_what_is_not_a_choice(ann: User, values: dict[str, Any]) -> None:
    before = stored(ann)
    good = {"turn": "each", "invitation": "digest", "game_over": "each", "digest_hour": 8}
    with pytest.raises(ValidationError):
        user_update_notifications(user=ann, **{**good, **values})
    assert stored(ann) == before


def test_the_preferences_need_a_login_and_a_post(ann: User) -> None:
    assert Client().post("/accounts/settings/notifications", GOOD).status_code == 302
    assert logged_in(ann).get("/accounts/settings/notifications").status_code == 405
    assert stored(ann) == ("each", "each", "each", 8, None)


@pytest.mark.parametrize(
    ("now", "zone", "hour", "expected"),
    [
        # Before and after the hour on the same local day.
        (datetime(2026, 6, 1, 5, 0, tzinfo=UTC), "UTC", 8, datetime(2026, 6, 1, 8, 0, tzinfo=UTC)),
        (datetime(2026, 6, 1, 8, 0, tzinfo=UTC), "UTC", 8, datetime(2026, 6, 2, 8, 0, tzinfo=UTC)),
        # Paris moves to summer time in the night of 29 March 2026: 08:00 is 07:00 UTC, then 06:00.
        (
            datetime(2026, 3, 28, 12, 0, tzinfo=UTC),
            "Europe/Paris",
            8,
            datetime(2026, 3, 29, 6, 0, tzinfo=UTC),
        ),
        (datetime(2026, 3, 28, 6, 0, tzinfo=UTC), "Europe/Paris", 8, datetime(2026, 3, 28, 7, 0, tzinfo=UTC)),
        # Kiritimati is UTC+14: its 00:00 on the 2nd is 10:00 UTC on the 1st.
        (
            datetime(2026, 12, 1, 9, 0, tzinfo=UTC),
            "Pacific/Kiritimati",
            0,
            datetime(2026, 12, 1, 10, 0, tzinfo=UTC),
        ),
    ],
)
def test_the_next_digest_is_the_next_such_hour_in_the_zone(
    ann: User, now: datetime, zone: str, hour: int, expected: datetime
) -> None:
    ann.notify_turn, ann.time_zone, ann.digest_hour = "digest", zone, hour
    assert ann.next_digest_after(now) == expected
