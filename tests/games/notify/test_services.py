"""The notification sweep (games/notify/services.py): each due nudge, alarm, invitation
and "match over" email is sent exactly once, to the right person, at the right time,
and never to someone who is at the table, on vacation, a bot, or who said no.

Time moves with time-machine; the mail is read from where it really went."""

from __future__ import annotations

import threading
from datetime import datetime, timedelta

import pytest
import time_machine
from asgiref.sync import async_to_sync
from django.conf import settings
from django.db import connection
from django.utils import timezone
from prometheus_client import REGISTRY
from pytest_django.fixtures import Settings

from accounts.models import Notify, User
from accounts.services import user_update_notifications
from games.live import presence
from games.models import Announcement, Match, Seat
from games.notify import selectors, services
from games.notify.emails import EventNews
from games.notify.models import Notice
from games.notify.tasks import match_finished
from games.services import SeatRequest, match_create, match_join, match_resign
from games.services.clocks import vacation_begin, vacation_end
from games.tasks import sweep_clocks
from tests.games.helpers import on_turn, seat, until_turn_passes
from tests.games.notify.helpers import Mailbox, Outbox, at_the_table, sweep, text_of, to

GRACE = timedelta(seconds=settings.NUDGE_GRACE_SECONDS)
SECOND = timedelta(seconds=1)


def nudge_time(match: Match, index: int) -> datetime:
    moment = seat(match, index).nudge_at
    assert moment is not None
    return moment


@pytest.mark.django_db
def test_the_nudge_arrives_once_after_the_grace(mailbox: Mailbox, clocked: Match) -> None:
    waiting = seat(clocked, on_turn(clocked))
    due = nudge_time(clocked, waiting.index)
    with time_machine.travel(due - SECOND, tick=False):
        assert sweep() == {}
    assert mailbox.mails() == []
    with time_machine.travel(due + SECOND, tick=False):
        assert sweep() == {"turn sent": 1}
        assert sweep() == {}  # done, and its column cleared: not even looked at again
    sent = mailbox.mails()
    assert [to(mail) for mail in sent] == [waiting.user.email]  # type: ignore[union-attr]
    assert (
        sent[0]["Subject"]
        == f"[Boomsite] Your turn in Go Fox! with {seat(clocked, 1 - waiting.index).public_name}"
    )
    assert seat(clocked, waiting.index).nudge_at is None
    notice = Notice.objects.get()
    assert (notice.kind, notice.ply, notice.status) == ("turn", waiting.decision_ply, "sent")


@pytest.mark.django_db
def test_no_nudge_when_the_player_moved_before_the_grace(outbox: Outbox, clocked: Match) -> None:
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        second = until_turn_passes(clocked)
    with time_machine.travel(start + GRACE - timedelta(minutes=1), tick=False):
        until_turn_passes(clocked)  # the second player moves a minute before their nudge
    with time_machine.travel(start + GRACE + SECOND, tick=False):
        assert sweep() == {}
    assert outbox.mails() == []
    assert seat(clocked, second).nudge_at is None
    assert not Notice.objects.exists()


@pytest.mark.django_db
def test_no_nudge_while_the_player_is_at_the_table_only_later(outbox: Outbox, clocked: Match) -> None:
    waiting = seat(clocked, on_turn(clocked))
    assert waiting.user is not None
    due = nudge_time(clocked, waiting.index)
    with time_machine.travel(due + SECOND, tick=False):
        at_the_table(clocked, waiting.user)
        assert sweep() == {"turn pushed": 1}
        # Put off by the grace, still before the alarm (the hour's 48th minute).
        assert seat(clocked, waiting.index).nudge_at == timezone.now() + GRACE
    assert outbox.mails() == []
    # They closed the match (their presence expired) and still have not played.
    with time_machine.travel(due + GRACE + 2 * SECOND, tick=False):
        assert sweep() == {"turn sent": 1}
    assert len(outbox.mails()) == 1


@pytest.mark.django_db
def test_the_grace_counts_from_when_the_player_left_the_table(outbox: Outbox, clocked: Match) -> None:
    """Issue 34, bug 1: a player kept the match open on their turn for a while and closed
    it; the next sweep came 3 s later and nudged them. The grace counts from leaving."""
    waiting = seat(clocked, on_turn(clocked))
    assert waiting.user is not None
    due = nudge_time(clocked, waiting.index)
    with time_machine.travel(due + SECOND, tick=False):
        at_the_table(clocked, waiting.user)
        assert sweep() == {"turn pushed": 1}
    left = due + GRACE - 3 * SECOND
    with time_machine.travel(left, tick=False):
        async_to_sync(presence.forget)(clocked.pk, "a-socket", "seat-0", waiting.user.pk)
    with time_machine.travel(due + GRACE + 2 * SECOND, tick=False):  # 5 s after leaving: not yet
        assert sweep() == {"turn pushed": 1}
        assert seat(clocked, waiting.index).nudge_at == left + GRACE
    assert outbox.mails() == []
    with time_machine.travel(left + GRACE + SECOND, tick=False):  # a grace after leaving
        assert sweep() == {"turn sent": 1}
    assert len(outbox.mails()) == 1


@pytest.mark.django_db
def test_the_alarm_comes_at_80_percent_of_the_turn_once(mailbox: Mailbox, clocked: Match) -> None:
    waiting = seat(clocked, on_turn(clocked))
    assert waiting.deadline_at is not None and waiting.alarm_at is not None
    assert waiting.deadline_at - waiting.alarm_at == timedelta(minutes=12)  # 80% of an hour
    with time_machine.travel(waiting.alarm_at - SECOND, tick=False):
        assert sweep() == {"turn sent": 1}  # the nudge, long due
    with time_machine.travel(waiting.alarm_at + SECOND, tick=False):
        assert sweep() == {"alarm sent": 1}
        assert sweep() == {}
    _nudge, alarm = mailbox.mails()
    assert alarm["Subject"] == "[Boomsite] 11 minutes left for your turn in Go Fox!"
    assert "the autopilot plays the turn for you" in text_of(alarm)
    assert "Time left: 11 minutes" in text_of(alarm)
    assert sorted(Notice.objects.values_list("kind", "status")) == [("alarm", "sent"), ("turn", "sent")]


@pytest.mark.django_db
def test_no_reminder_once_the_time_ran_out(outbox: Outbox, clocked: Match) -> None:
    waiting = seat(clocked, on_turn(clocked))
    assert waiting.deadline_at is not None
    # The sweeps were down through the whole turn: the autopilot's turn now, not an email's.
    with time_machine.travel(waiting.deadline_at + SECOND, tick=False):
        assert sweep() == {"turn skipped": 1, "alarm skipped": 1}
    assert outbox.mails() == []


@pytest.mark.django_db
def test_a_new_turn_gets_a_new_nudge_and_a_turn_never_two(outbox: Outbox, clocked: Match) -> None:
    first = on_turn(clocked)
    with time_machine.travel(nudge_time(clocked, first) + SECOND, tick=False):
        assert sweep() == {"turn sent": 1}
        player = seat(clocked, first).user
        assert player is not None
        # A vacation and the return restart the same turn's clock (and its nudge moment)...
        vacation_begin(user=player, days=1)
        vacation_end(user=player)
    resumed = nudge_time(clocked, first)
    with time_machine.travel(resumed + SECOND, tick=False):
        assert sweep() == {"turn taken": 1}  # ...but this turn had its nudge
        assert seat(clocked, first).nudge_at is None
        # The next turn of the same player is a new decision, so a new nudge.
        until_turn_passes(clocked)
        until_turn_passes(clocked)
    assert on_turn(clocked) == first
    with time_machine.travel(nudge_time(clocked, first) + SECOND, tick=False):
        assert sweep() == {"turn sent": 1}
    assert [to(mail) for mail in outbox.mails()] == [player.email] * 2
    assert Notice.objects.filter(kind="turn").values("ply").distinct().count() == 2


@pytest.mark.django_db
def test_a_sweep_that_read_the_due_turn_before_another_sent_it_sends_nothing(
    outbox: Outbox, clocked: Match
) -> None:
    waiting = on_turn(clocked)
    with time_machine.travel(nudge_time(clocked, waiting) + SECOND, tick=False):
        stale = selectors.nudges_due(timezone.now())  # the second sweep reads...
        assert sweep() == {"turn sent": 1}  # ...the first sends...
        for seat_id, due_at in stale:  # ...and the second acts on what it read
            assert services.seat_notice(seat_id=seat_id, due_at=due_at, kind="turn") == "gone"
    assert len(outbox.mails()) == 1


@pytest.mark.django_db(transaction=True)
def test_two_sweeps_at_once_send_one_email(mailbox: Mailbox, clocked: Match) -> None:
    waiting = on_turn(clocked)
    outcomes: list[str] = []
    both_read = threading.Barrier(2)

    def one_sweep() -> None:
        try:
            due = selectors.nudges_due(timezone.now())
            both_read.wait(timeout=10)  # both have read the due turn before either acts
            for seat_id, due_at in due:
                outcomes.append(services.seat_notice(seat_id=seat_id, due_at=due_at, kind="turn"))
        finally:
            connection.close()  # each thread has its own connection

    with time_machine.travel(nudge_time(clocked, waiting) + SECOND, tick=False):
        threads = [threading.Thread(target=one_sweep) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
    assert sorted(outcomes) in (["gone", "sent"], ["sent", "taken"])
    assert len(mailbox.mails()) == 1
    assert Notice.objects.get().status == "sent"


@pytest.mark.django_db
def test_a_notice_whose_sender_died_is_sent_by_a_later_sweep_once(outbox: Outbox, clocked: Match) -> None:
    """What a worker killed between writing the row and sending leaves: a claimed row
    and a cleared column (tests/games/notify/test_tasks.py kills a real one)."""
    waiting = seat(clocked, on_turn(clocked))
    due = nudge_time(clocked, waiting.index)
    with time_machine.travel(due + SECOND, tick=False):
        assert waiting.user is not None and waiting.decision_ply is not None
        # Written, and the column cleared, in one transaction; then the process dies.
        Notice.objects.create(
            user=waiting.user, match=clocked, ply=waiting.decision_ply, kind="turn", claimed_at=timezone.now()
        )
        Seat.objects.filter(pk=waiting.pk).update(nudge_at=None)
        assert sweep() == {}
    with time_machine.travel(due + services.RETRY_AFTER - SECOND, tick=False):
        assert sweep() == {}  # its sender might still be at it
    with time_machine.travel(due + services.RETRY_AFTER + 2 * SECOND, tick=False):
        assert sweep() == {"retry sent": 1}
        assert sweep() == {}
    assert len(outbox.mails()) == 1
    assert Notice.objects.get().attempts == 2


def a_claimed_notice_outlives_its_turn(clocked: Match) -> None:
    """A "your turn" notice claimed by a sweep, whose turn is played before it goes: the
    next sweep drops it."""
    waiting = seat(clocked, on_turn(clocked))
    assert waiting.user is not None and waiting.decision_ply is not None
    Notice.objects.create(
        user=waiting.user, match=clocked, ply=waiting.decision_ply, kind="turn", claimed_at=timezone.now()
    )
    until_turn_passes(clocked)
    with time_machine.travel(timezone.now() + services.RETRY_AFTER + SECOND, tick=False):
        assert sweep() == {"retry dropped": 1}


@pytest.mark.django_db
def test_a_claimed_notice_whose_turn_was_played_meanwhile_is_dropped(outbox: Outbox, clocked: Match) -> None:
    a_claimed_notice_outlives_its_turn(clocked)
    assert outbox.mails() == []
    assert Notice.objects.get().note == "the turn is over"


def emails_counted(outcome: str) -> float:
    """``boomsite_emails_total`` of turn emails with ``outcome``, in this process (/metrics)."""
    return REGISTRY.get_sample_value("boomsite_emails_total", {"kind": "turn", "outcome": outcome}) or 0.0


@pytest.mark.django_db
def test_each_emails_outcome_is_counted_for_the_metrics(outbox: Outbox, clocked: Match) -> None:
    before = {outcome: emails_counted(outcome) for outcome in ("sent", "dropped")}
    a_claimed_notice_outlives_its_turn(clocked)
    assert emails_counted("dropped") == before["dropped"] + 1
    # The next player's nudge: sent.
    with time_machine.travel(nudge_time(clocked, on_turn(clocked)) + SECOND, tick=False):
        assert sweep() == {"turn sent": 1}
    assert emails_counted("sent") == before["sent"] + 1


@pytest.mark.django_db
def test_a_mail_server_that_refuses_is_tried_again_then_given_up(clocked: Match, settings: Settings) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", 9, 2  # nothing listens
    moment = nudge_time(clocked, on_turn(clocked)) + SECOND
    with time_machine.travel(moment, tick=False):
        assert sweep() == {"turn failed": 1}
    for attempt in range(2, services.MAX_ATTEMPTS + 1):
        moment += services.RETRY_AFTER + SECOND
        with time_machine.travel(moment, tick=False):
            assert sweep() == {"retry failed": 1}
            assert Notice.objects.get().attempts == attempt
    with time_machine.travel(moment + services.RETRY_AFTER + SECOND, tick=False):
        assert sweep() == {"retry gave up": 1}
        assert sweep() == {}
    assert Notice.objects.get().status == "failed"


@pytest.mark.django_db
def test_vacation_suppresses_nudges_even_where_the_clock_runs(outbox: Outbox, clocked: Match) -> None:
    # A match that does not allow vacation (a tournament's): the clock runs on, the emails stop.
    Match.objects.filter(pk=clocked.pk).update(vacation_allowed=False)
    waiting = seat(clocked, on_turn(clocked))
    assert waiting.user is not None
    vacation_begin(user=waiting.user, days=2)
    assert seat(clocked, waiting.index).nudge_at is not None
    with time_machine.travel(seat(clocked, waiting.index).alarm_at + SECOND, tick=False):  # type: ignore[operator]
        assert sweep() == {"turn skipped": 1, "alarm skipped": 1}
    assert outbox.mails() == []
    assert seat(clocked, waiting.index).nudge_at is None and seat(clocked, waiting.index).alarm_at is None


@pytest.mark.django_db
def test_vacation_pauses_the_nudge_and_the_return_brings_it_after_a_grace(
    outbox: Outbox, clocked: Match
) -> None:
    waiting = seat(clocked, on_turn(clocked))
    assert waiting.user is not None
    start = timezone.now()
    vacation_begin(user=waiting.user, days=1)
    with time_machine.travel(start + timedelta(hours=20), tick=False):
        assert sweep() == {}
    with time_machine.travel(start + timedelta(days=1, minutes=1), tick=False):
        sweep_clocks()  # the vacation ran out: the clock runs again
        back = timezone.now()
    with time_machine.travel(back + GRACE + SECOND, tick=False):
        assert sweep() == {"turn sent": 1}
    assert len(outbox.mails()) == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    "change",
    [
        {"notify_turn": Notify.OFF},
        {"notify_turn": Notify.DIGEST},
        {"is_active": False},
        {"email": ""},
    ],
)
def test_no_nudge_to_who_said_no_or_cannot_get_one(
    outbox: Outbox, clocked: Match, change: dict[str, object]
) -> None:
    waiting = seat(clocked, on_turn(clocked))
    assert waiting.user is not None
    User.objects.filter(pk=waiting.user.pk).update(**change)
    with time_machine.travel(nudge_time(clocked, waiting.index) + SECOND, tick=False):
        assert sweep() == {"turn skipped": 1}
        assert sweep() == {}
    assert outbox.mails() == []


@pytest.mark.django_db
def test_no_nudge_for_a_match_ended_by_resignation(
    outbox: Outbox, clocked: Match, ann: User, bob: User
) -> None:
    waiting = seat(clocked, on_turn(clocked))
    other = bob if waiting.user == ann else ann
    match_resign(match_id=clocked.pk, user=other)
    with time_machine.travel(timezone.now() + GRACE + SECOND, tick=False):
        sweep()
    assert outbox.mails() == []


# -- invitations --------------------------------------------------------------------


@pytest.fixture
def invitation(ann: User, bob: User) -> Match:
    """Ann invites Bob to Go Fox!; he has not answered."""
    return match_create(
        creator=ann, game_slug="go-fox", options={},
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
    )  # fmt: skip


@pytest.mark.django_db
def test_an_invitation_waiting_after_the_grace_is_mailed_once(
    mailbox: Mailbox, invitation: Match, bob: User
) -> None:
    with time_machine.travel(invitation.created_at + GRACE - SECOND, tick=False):
        assert sweep() == {}
    with time_machine.travel(invitation.created_at + GRACE + SECOND, tick=False):
        assert sweep() == {"invitation sent": 1}
        assert sweep() == {}
    (mail,) = mailbox.mails()
    assert to(mail) == bob.email
    assert mail["Subject"] == "[Boomsite] Ann invites you to play Go Fox!"
    assert f"Accept or decline: https://boom.example/matches/{invitation.pk}/" in text_of(mail)
    assert text_of(mail).startswith("Hello Bob,\n\nAnn invites you to play Go Fox! (no time limit).\n")


@pytest.mark.django_db
def test_an_invitation_answered_within_the_grace_is_not_mailed(
    outbox: Outbox, invitation: Match, bob: User
) -> None:
    match_join(match_id=invitation.pk, user=bob)  # the match starts: someone's turn
    with time_machine.travel(invitation.created_at + GRACE + SECOND, tick=False):
        assert sweep() == {"turn sent": 1}
    assert ["invites you" not in mail["Subject"] for mail in outbox.mails()] == [True]
    assert not Notice.objects.filter(kind="invitation").exists()


@pytest.mark.django_db
def test_an_invitation_to_who_wants_none_is_decided_once_and_left_behind(
    outbox: Outbox, invitation: Match, bob: User
) -> None:
    user_update_notifications(user=bob, turn="each", invitation="off", game_over="each", digest_hour=8)
    with time_machine.travel(invitation.created_at + GRACE + SECOND, tick=False):
        assert sweep() == {"invitation skipped": 1}
        assert sweep() == {}
    assert outbox.mails() == []
    assert Notice.objects.get().status == "dropped"


# -- game over --------------------------------------------------------------------


@pytest.mark.django_db
def test_the_match_over_email_goes_once_to_each_player_even_when_told_twice(
    mailbox: Mailbox, clocked: Match, ann: User, bob: User
) -> None:
    match_resign(match_id=clocked.pk, user=bob)
    assert Announcement.objects.filter(match=clocked, task_name=services.MATCH_FINISHED_TASK).exists()
    assert match_finished(clocked.pk) == 2
    assert match_finished(clocked.pk) == 0  # the announcement resent: nothing more
    sent = {to(mail): mail for mail in mailbox.mails()}
    assert sorted(sent) == [ann.email, bob.email]
    assert sent[ann.email]["Subject"] == "[Boomsite] Go Fox! is over: you placed 1st of 2"
    assert sent[bob.email]["Subject"] == "[Boomsite] Go Fox! is over: you placed 2nd of 2"
    assert "1st  Ann" in text_of(sent[bob.email]) and "2nd  Bob" in text_of(sent[bob.email])
    assert Announcement.objects.get(match=clocked, task_name=services.MATCH_FINISHED_TASK).delivered_at


@pytest.mark.django_db
def test_the_match_over_email_respects_the_choice_and_skips_bots(
    outbox: Outbox, ann: User, bob: User
) -> None:
    user_update_notifications(user=bob, turn="each", invitation="each", game_over="off", digest_hour=8)
    match = match_create(
        creator=ann, game_slug="go-fox", options={},
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob"), SeatRequest("bot", level="random")],
    )  # fmt: skip
    match_join(match_id=match.pk, user=bob)
    match_resign(match_id=match.pk, user=ann)
    match_resign(match_id=match.pk, user=bob)  # no person left: the match ends
    assert match_finished(match.pk) == 1
    assert [to(mail) for mail in outbox.mails()] == [ann.email]


@pytest.mark.django_db
def test_no_match_over_email_to_who_saw_the_end_live(
    outbox: Outbox, clocked: Match, ann: User, bob: User
) -> None:
    """Issue 34, item 6: Bob watched the match end on its page: no "match over" for him.
    Ann had closed it a minute before the end: hers goes. Decided once, by the notice."""
    ends = timezone.now() + timedelta(minutes=5)
    with time_machine.travel(ends - timedelta(minutes=1), tick=False):
        at_the_table(clocked, ann)
        async_to_sync(presence.forget)(clocked.pk, "a-socket", "seat-0", ann.pk)
    with time_machine.travel(ends, tick=False):
        at_the_table(clocked, bob)
        match_resign(match_id=clocked.pk, user=bob)
        assert match_finished(clocked.pk) == 1
    assert [to(mail) for mail in outbox.mails()] == [ann.email]
    told = Notice.objects.get(kind=Notice.Kind.GAME_OVER, user=bob)
    assert (told.status, told.note) == (Notice.Status.DROPPED, "saw the end live")
    assert match_finished(clocked.pk) == 0  # told again: decided once, nothing more


@pytest.mark.django_db
def test_a_cooperative_match_over_says_the_team_won_or_lost(outbox: Outbox, ann: User, bob: User) -> None:
    match = match_create(
        creator=ann, game_slug="its-a-bomb", options={},
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
    )  # fmt: skip
    match_join(match_id=match.pk, user=bob)
    match_resign(match_id=match.pk, user=ann)
    match_resign(match_id=match.pk, user=bob)  # nobody left to play: the team lost
    assert match_finished(match.pk) == 2
    assert [mail["Subject"] for mail in outbox.mails()] == [
        "[Boomsite] It's a Bomb! is over: your team lost"
    ] * 2
    assert "Final places" not in text_of(outbox.mails()[0])


# -- an event's email, composed by a feature ----------------------------------------------


@pytest.mark.parametrize(
    ("kind", "event", "links"),
    [
        (Notice.Kind.TABLE, "tournament 1", ()),  # not an event's kind
        (Notice.Kind.ENDED, " ", ()),  # an event without a name
        (Notice.Kind.ENDED, "x" * 101, ()),  # longer than the key keeps
        (Notice.Kind.ENDED, "tournament 1", (("Elsewhere", "https://example.com/"),)),
        (Notice.Kind.ENDED, "tournament 1", (("Elsewhere", "//example.com/"),)),
    ],
    ids=["kind", "unnamed", "long", "address", "scheme-relative"],
)
def test_an_event_notice_with_bad_input_is_refused_and_writes_nothing(
    outbox: Outbox, ann: User, kind: str, event: str, links: tuple[tuple[str, str], ...]
) -> None:
    news = EventNews(subject="Over", paragraphs=("It is over.",), links=links)
    with pytest.raises(ValueError):
        services.event_notice(user_id=ann.pk, kind=kind, event=event, news=news)
    assert Notice.objects.count() == 0 and outbox.mails() == []


def test_an_event_notice_goes_once_per_person_event_and_kind(outbox: Outbox, ann: User) -> None:
    news = EventNews(subject="Over", paragraphs=("It is over.",), links=(("See it", "/somewhere/"),))

    def send(kind: str, event: str) -> services.NoticeOutcome:
        return services.event_notice(user_id=ann.pk, kind=kind, event=event, news=news)

    assert send(Notice.Kind.ENDED, "cup 1") == services.NoticeOutcome.SENT
    assert send(Notice.Kind.ENDED, "cup 1") == services.NoticeOutcome.TAKEN
    assert send(Notice.Kind.STARTED, "cup 1") == services.NoticeOutcome.SENT
    assert send(Notice.Kind.ENDED, "cup 2") == services.NoticeOutcome.SENT
    assert len(outbox.mails()) == 3
    assert f"See it: {settings.SITE_URL}/somewhere/" in text_of(outbox.mails()[0])
