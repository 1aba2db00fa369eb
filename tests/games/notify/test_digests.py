"""The daily digest (games/notify/services.py, ``digest_notice``): one email at the hour
the player chose, in their time zone, listing every match waiting for them, the least
time left first; none when nothing waits; once per local day."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
import time_machine

from accounts.models import User
from accounts.services import user_update_notifications, user_update_settings
from games.clocks import left_in_words
from games.models import Match
from games.notify.models import Notice
from games.services import SeatRequest, match_create, match_join
from games.services.clocks import vacation_begin
from tests.games.notify.helpers import Mailbox, Outbox, seat_of, sweep, text_of, to, until_turn_of

pytestmark = pytest.mark.django_db

NOON_UTC = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
SECOND = timedelta(seconds=1)


def wants_digest(user: User, zone: str, hour: int) -> User:
    user_update_settings(user=user, display_name=user.display_name, time_zone=zone)
    return user_update_notifications(
        user=user, turn="digest", invitation="digest", game_over="each", digest_hour=hour
    )


def duel(creator: User, guest: User, turn_limit: int | None, *, accept: bool = True) -> Match:
    match = match_create(
        creator=creator, game_slug="go-fox", options={}, turn_limit=turn_limit,
        seats=[SeatRequest("me"), SeatRequest("invite", username=guest.username)],
    )  # fmt: skip
    if accept:
        match_join(match_id=match.pk, user=guest)
    return Match.objects.get(pk=match.pk)


def digest_keys(counts: dict[str, int]) -> dict[str, int]:
    return {key: count for key, count in counts.items() if key.startswith("digest")}


@pytest.mark.parametrize(
    ("zone", "hour", "due", "local_day"),
    [
        # Auckland is UTC+13 in December: 08:00 on the 2nd is 19:00 UTC on the 1st.
        ("Pacific/Auckland", 8, datetime(2026, 12, 1, 19, 0, tzinfo=UTC), date(2026, 12, 2)),
        # Los Angeles is UTC-8: 20:00 on the 1st is 04:00 UTC on the 2nd.
        ("America/Los_Angeles", 20, datetime(2026, 12, 2, 4, 0, tzinfo=UTC), date(2026, 12, 1)),
    ],
)
def test_the_digest_comes_at_the_players_hour_in_their_zone_across_the_date_line(
    mailbox: Mailbox, ann: User, bob: User, zone: str, hour: int, due: datetime, local_day: date
) -> None:
    with time_machine.travel(NOON_UTC, tick=False):
        ann = wants_digest(ann, zone, hour)
        assert ann.next_digest_at == due
        free, three_days, one_day = duel(bob, ann, None), duel(bob, ann, 3 * 86400), duel(bob, ann, 86400)
        for match in (free, three_days, one_day):
            until_turn_of(match, ann)
        invitation = duel(bob, ann, None, accept=False)
    with time_machine.travel(due - SECOND, tick=False):
        counts = sweep()
        # Her turns and invitation wait for the digest: no email of their own.
        assert counts == {"turn skipped": 3, "invitation skipped": 1}
    assert mailbox.mails() == []
    with time_machine.travel(due + SECOND, tick=False):
        assert sweep() == {"digest sent": 1}
        assert sweep() == {}
    (mail,) = mailbox.mails()
    assert to(mail) == ann.email
    assert mail["Subject"] == "[Boomsite] 4 matches waiting for you"
    text = text_of(mail)
    assert f"Your daily digest for {local_day:%A} {local_day.day} December: 4 matches" in text
    order = [text.index(f"/matches/{match.pk}/") for match in (one_day, three_days, free, invitation)]
    assert order == sorted(order)  # the least time left first, no limit last, then the invitation
    deadline = seat_of(one_day, ann).deadline_at
    assert deadline == NOON_UTC + timedelta(days=1)
    assert f"Your turn: Go Fox! with Bob, {left_in_words(deadline - due - SECOND)} left" in text
    assert "Your turn: Go Fox! with Bob, no time limit" in text
    assert "Invitation: Go Fox! with Bob" in text
    notice = Notice.objects.get(kind="digest")
    assert (notice.user, notice.day, notice.status) == (ann, local_day, "sent")
    ann.refresh_from_db()
    assert ann.next_digest_at == due + timedelta(days=1)


def test_once_per_local_day_even_if_the_hour_moves_after_it_went(
    outbox: Outbox, ann: User, bob: User
) -> None:
    due = datetime(2026, 12, 1, 19, 0, tzinfo=UTC)  # 08:00 in Auckland, the 2nd
    with time_machine.travel(NOON_UTC, tick=False):
        ann = wants_digest(ann, "Pacific/Auckland", 8)
        duel(bob, ann, None, accept=False)
    with time_machine.travel(due + SECOND, tick=False):
        assert digest_keys(sweep()) == {"digest sent": 1}
    with time_machine.travel(due + timedelta(minutes=30), tick=False):
        # Later that morning she moves the digest to 20:00: today's has gone already.
        ann = user_update_notifications(
            user=ann, turn="digest", invitation="digest", game_over="each", digest_hour=20
        )
        assert ann.next_digest_at == datetime(2026, 12, 2, 7, 0, tzinfo=UTC)
    with time_machine.travel(datetime(2026, 12, 2, 7, 0, 1, tzinfo=UTC), tick=False):
        assert digest_keys(sweep()) == {"digest taken": 1}
        ann.refresh_from_db()
        assert ann.next_digest_at == datetime(2026, 12, 3, 7, 0, tzinfo=UTC)  # 20:00 on the 3rd
    with time_machine.travel(datetime(2026, 12, 3, 7, 0, 1, tzinfo=UTC), tick=False):
        assert digest_keys(sweep()) == {"digest sent": 1}
    assert len(outbox.mails()) == 2
    assert list(Notice.objects.filter(kind="digest").order_by("day").values_list("day", flat=True)) == [
        date(2026, 12, 2),
        date(2026, 12, 3),
    ]


def test_no_digest_when_nothing_waits_and_the_next_is_tomorrow(outbox: Outbox, ann: User) -> None:
    with time_machine.travel(NOON_UTC, tick=False):
        ann = wants_digest(ann, "UTC", 13)
    with time_machine.travel(NOON_UTC + timedelta(hours=1, seconds=1), tick=False):
        assert sweep() == {"digest skipped": 1}
    assert outbox.mails() == []
    assert not Notice.objects.exists()
    ann.refresh_from_db()
    assert ann.next_digest_at == datetime(2026, 12, 2, 13, 0, tzinfo=UTC)


def test_the_digest_lists_only_the_kinds_chosen_for_it(outbox: Outbox, ann: User, bob: User) -> None:
    with time_machine.travel(NOON_UTC, tick=False):
        ann = wants_digest(ann, "UTC", 18)
        ann = user_update_notifications(
            user=ann, turn="digest", invitation="each", game_over="each", digest_hour=18
        )
        turn = duel(bob, ann, None)
        until_turn_of(turn, ann)
        invitation = duel(bob, ann, None, accept=False)
    with time_machine.travel(NOON_UTC + timedelta(hours=6, seconds=1), tick=False):
        assert sweep() == {"turn skipped": 1, "invitation sent": 1, "digest sent": 1}
    invited, digest = outbox.mails()
    assert "invites you" in invited["Subject"]
    assert f"/matches/{turn.pk}/" in text_of(digest) and f"/matches/{invitation.pk}/" not in text_of(digest)


def test_no_digest_on_vacation(outbox: Outbox, ann: User, bob: User) -> None:
    with time_machine.travel(NOON_UTC, tick=False):
        ann = wants_digest(ann, "UTC", 13)
        duel(bob, ann, None, accept=False)
        vacation_begin(user=ann, days=3)
    with time_machine.travel(NOON_UTC + timedelta(hours=1, seconds=1), tick=False):
        assert digest_keys(sweep()) == {"digest skipped": 1}
    assert outbox.mails() == []
