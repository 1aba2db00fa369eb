"""The notification tasks on a real Celery worker (games/notify/tasks.py): a worker
killed in the middle of sending a nudge loses nothing and duplicates nothing.

The worker's sweep writes the notice and clears the seat's nudge moment in one
transaction, then connects to the mail server, which holds the delivery at RCPT (before
the message is transferred); the worker is killed there. Its notice stays ``claimed``,
and a later sweep takes it over once it is ``RETRY_AFTER`` old and sends it, once.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone
from pytest_django.fixtures import Settings

from accounts.models import User
from boomsite.celery import app
from games.models import Match
from games.notify import services
from games.notify.models import Notice
from games.services import SeatRequest, match_create, match_join
from tests.conftest import ensure_bot_accounts, wait_for
from tests.games.helpers import on_turn, seat
from tests.games.notify.helpers import SmtpServer, sweep, to
from tests.processes import celery_worker

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_a_worker_killed_while_sending_a_nudge_loses_and_duplicates_nothing(
    site_env: dict[str, str], settings: Settings, stalling_smtp: SmtpServer, ann: User, bob: User
) -> None:
    ensure_bot_accounts()
    settings.NUDGE_GRACE_SECONDS = 0  # the nudge is due at once: the worker's clock cannot be moved
    match = match_create(
        creator=ann, game_slug="go-fox", options={}, turn_limit=3600,
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
    )  # fmt: skip
    match_join(match_id=match.pk, user=bob)
    waiting = seat(Match.objects.get(pk=match.pk), on_turn(match))
    assert waiting.user is not None and waiting.nudge_at is not None

    env = {**site_env, "EMAIL_URL": f"smtp://127.0.0.1:{settings.EMAIL_PORT}", "SITE_URL": settings.SITE_URL}
    app.control.purge()
    with celery_worker(env) as (_name, process):
        app.send_task("games.notify.tasks.sweep_notices")
        wait_for(stalling_smtp.stalled.is_set, timeout=60, interval=0.05, what="the worker to be sending")
        # The row is written and the moment cleared before anything was sent.
        notice = Notice.objects.get()
        assert (notice.kind, notice.status, notice.ply) == ("turn", "claimed", waiting.decision_ply)
        assert seat(match, waiting.index).nudge_at is None
        process.kill()  # SIGKILL, mid-send
        process.wait()
    stalling_smtp.release.set()
    assert stalling_smtp.mails() == []  # the message never reached the server

    with time_machine.travel(timezone.now() + timedelta(seconds=5), tick=False):
        assert sweep() == {}  # too soon: its sender might still be at it
    with time_machine.travel(notice.claimed_at + services.RETRY_AFTER + timedelta(seconds=1), tick=False):
        assert sweep() == {"retry sent": 1}
        assert sweep() == {}
    assert [to(mail) for mail in stalling_smtp.mails()] == [waiting.user.email]
    notice.refresh_from_db()
    assert (notice.status, notice.attempts) == ("sent", 2)
