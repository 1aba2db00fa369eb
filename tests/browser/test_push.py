"""Notifications on a device, in chromium: the account page registers the site's service
worker (under the Content-Security-Policy), its "Turn on" asks for a subscription; a
push delivered to the worker over the DevTools protocol (as a push service would
deliver it) is shown as a notification with the site's words, one per match.

Not covered here, and why: chromium's own push service is Google's (FCM), which this
machine cannot reach (and headless chromium refuses push subscriptions), so
``pushManager.subscribe`` fails and the test checks that the page says so and writes
nothing; the page's post of a real subscription is the JSON
endpoint's, tested in tests/games/notify/test_push_views.py, and the site's sends are
tested against a local push service in tests/games/notify/test_push.py. A tap on a
notification (``notificationclick``) cannot be made in a headless browser: the worker's
handler that focuses or opens the match is not exercised.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import User
from games.notify import push_messages
from games.notify.models import PushSubscription
from games.services import SeatRequest, match_create, match_join
from tests.browser.axe import serious_findings
from tests.browser.helpers import log_in
from tests.conftest import ensure_bot_accounts
from tests.games.helpers import on_turn, seat

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

_RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(event.violatedDirective + " " + event.blockedURI);
});
"""

NOTIFICATIONS = """() => navigator.serviceWorker.ready
  .then((registration) => registration.getNotifications())
  .then((shown) => shown.map((n) => ({title: n.title, body: n.body, tag: n.tag, url: n.data.url})))"""


def notifications_once(page: Any, condition: Callable[[list[dict[str, str]]], bool]) -> list[dict[str, str]]:
    """The notifications the worker shows, once ``condition`` holds of them (10 s at most)."""
    for _ in range(100):
        shown: list[dict[str, str]] = page.evaluate(NOTIFICATIONS)
        if condition(shown):
            return shown
        page.wait_for_timeout(100)
    raise AssertionError(f"the notifications shown stayed {shown}")


def test_the_account_page_registers_the_worker_which_shows_a_push_per_match(
    live_site: str, browser: Any, ann: User, bob: User
) -> None:
    ensure_bot_accounts()
    clocked = match_create(
        creator=ann, game_slug="go-fox", options={}, turn_limit=3600,
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
    )  # fmt: skip
    match_join(match_id=clocked.pk, user=bob)
    waiting = seat(clocked, on_turn(clocked))
    person = waiting.user
    assert isinstance(person, User)
    context = browser.new_context()
    context.grant_permissions(["notifications"], origin=live_site)
    log_in(context, live_site, person)
    page = context.new_page()
    page.add_init_script(_RECORD_VIOLATIONS)

    page.goto(f"{live_site}/accounts/settings/#push")
    page.wait_for_function(
        "() => document.getElementById('push-status').textContent.includes('off in this browser')"
    )
    assert page.is_visible("#push-on") and not page.is_visible("#push-off")
    scope = page.evaluate("() => navigator.serviceWorker.ready.then((registration) => registration.scope)")
    assert scope == f"{live_site}/"  # the whole site, as Service-Worker-Allowed lets it
    assert serious_findings(page) == []

    # "Turn on": permission is granted, the subscription is asked of chromium's push
    # service, which headless chromium refuses (its push service is Google's, out of
    # reach here anyway): the page says so, and nothing is written.
    page.click("#push-on")
    page.wait_for_function(
        "() => document.getElementById('push-status').textContent.includes('could not subscribe to its push service')"
    )
    assert page.is_visible("#push-on") and not PushSubscription.objects.exists()
    assert page.evaluate("window.__cspViolations") == []

    # A push delivered to the worker as a push service would: the site's own words for this turn.
    cdp = context.new_cdp_session(page)
    registrations: dict[str, str] = {}
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.update(
            {r["scopeURL"]: r["registrationId"] for r in event["registrations"]}
        ),
    )
    cdp.send("ServiceWorker.enable")
    for _ in range(100):  # Playwright hands events over while it waits (time.sleep would not)
        if f"{live_site}/" in registrations:
            break
        page.wait_for_timeout(100)
    assert f"{live_site}/" in registrations, registrations

    def deliver(message: dict[str, Any]) -> None:
        cdp.send(
            "ServiceWorker.deliverPushMessage",
            {
                "origin": live_site,
                "registrationId": registrations[f"{live_site}/"],
                "data": json.dumps(message),
            },
        )

    turn = push_messages.turn_message(waiting, timezone.now(), is_alarm=False)
    deliver(turn)
    (shown,) = notifications_once(page, lambda shown: len(shown) == 1)
    match_page = f"{live_site}/matches/{clocked.pk}/"
    assert shown == {
        "title": "Your turn in Go Fox!",
        "body": turn["body"],
        "tag": f"match-{clocked.pk}",
        "url": match_page,
    }

    # The alarm for the same match replaces the turn's notification: one per match.
    alarm = push_messages.turn_message(waiting, timezone.now(), is_alarm=True)
    deliver(alarm)
    (shown,) = notifications_once(page, lambda shown: len(shown) == 1 and shown[0]["title"] != turn["title"])
    assert shown["title"].endswith("left for your turn in Go Fox!") and shown["url"] == match_page

    # A push naming another site's address opens this site's home page instead.
    deliver({"title": "Odd", "body": "", "url": "https://evil.example/", "tag": "match-0"})
    shown_now = notifications_once(page, lambda shown: len(shown) == 2)
    odd = next(item for item in shown_now if item["title"] == "Odd")
    assert odd["url"] == f"{live_site}/"
    context.close()
