"""The pages of Web Push (games/notify/push_views.py): the JSON endpoint the account
page's script posts a browser's subscription to (session and CSRF token; bad input is a
clear JSON error and writes nothing), the account page's section and its forms, and the
service worker as browsers must get it."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from pytest_django.fixtures import Settings

from accounts.models import User
from games.notify import push_devices
from games.notify.models import PushChoices, PushSubscription
from tests.games.helpers import logged_in
from tests.games.notify.push_service import Device

pytestmark = pytest.mark.django_db

SERVICE = "https://fcm.googleapis.com/fcm/send/"


def a_subscription(name: str = "phone") -> dict[str, Any]:
    return Device(name=name, endpoint=SERVICE + name).subscription()


def csrf_client(user: User) -> tuple[Client, str]:
    """A browser signed in as ``user`` whose posts need the CSRF token, as the real page's."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    page = client.get("/accounts/settings/")
    return client, str(page.context["csrf_token"])


def post_json(client: Client, path: str, body: Any, token: str = "", **extra: Any) -> Any:
    raw = body if isinstance(body, bytes | str) else json.dumps(body)
    return client.post(path, raw, content_type="application/json", headers={"X-CSRFToken": token}, **extra)


def test_a_subscription_posted_by_the_page_is_kept_once_and_follows_its_browser(ann: User, bob: User) -> None:
    client, token = csrf_client(ann)
    answer = post_json(
        client, "/notify/push/subscribe", a_subscription(), token, HTTP_USER_AGENT="Firefox on a phone"
    )
    assert answer.status_code == 200 and answer.json() == {"subscribed": True, "devices": 1}
    device = PushSubscription.objects.get()
    assert (device.user, device.endpoint, device.user_agent) == (ann, SERVICE + "phone", "Firefox on a phone")

    again = a_subscription()  # the page posts it on every visit, keys renewed
    assert post_json(client, "/notify/push/subscribe", again, token).status_code == 200
    assert PushSubscription.objects.get().p256dh == again["keys"]["p256dh"]

    bobs, bobs_token = csrf_client(bob)  # Bob signs in on the same browser and turns them on
    assert post_json(bobs, "/notify/push/subscribe", again, bobs_token).status_code == 200
    assert PushSubscription.objects.get().user == bob

    assert post_json(client, "/notify/push/unsubscribe", {"endpoint": again["endpoint"]}, token).json() == {
        "forgotten": False  # not Ann's any more: hers to forget no longer
    }
    assert post_json(
        bobs, "/notify/push/unsubscribe", {"endpoint": again["endpoint"]}, bobs_token
    ).json() == {"forgotten": True}
    assert not PushSubscription.objects.exists()


def _keys(p256dh: str = "", auth: str = "") -> dict[str, Any]:
    good = a_subscription()["keys"]
    return {"p256dh": p256dh or good["p256dh"], "auth": auth or good["auth"]}


@pytest.mark.parametrize(
    ("body", "error"),
    [
        (b"not json", "The body is not JSON."),
        ([1, 2], "Send the subscription as a JSON object."),
        ({"keys": _keys()}, "The subscription has no endpoint."),
        (
            {"endpoint": "http://fcm.googleapis.com/x", "keys": _keys()},
            "not an HTTPS address of a push service",
        ),
        ({"endpoint": "https://evil.example/x", "keys": _keys()}, "not an HTTPS address of a push service"),
        ({"endpoint": "https://fcm.googleapis.com.evil.example/x", "keys": _keys()}, "not an HTTPS address"),
        ({"endpoint": "https://user:pw@fcm.googleapis.com/x", "keys": _keys()}, "not an HTTPS address"),
        ({"endpoint": "https://127.0.0.1/x", "keys": _keys()}, "not an HTTPS address of a push service"),
        ({"endpoint": SERVICE + "x" * 1000, "keys": _keys()}, "The endpoint is too long"),
        ({"endpoint": SERVICE + "x"}, "The subscription has no keys."),
        ({"endpoint": SERVICE + "x", "keys": {"p256dh": 5, "auth": "x"}}, "need p256dh and auth"),
        (
            {"endpoint": SERVICE + "x", "keys": _keys(p256dh="BAAA")},
            "The p256dh key is not a P-256 public key",
        ),
        ({"endpoint": SERVICE + "x", "keys": _keys(p256dh="B" + "A" * 86)}, "not a P-256 public key"),
        ({"endpoint": SERVICE + "x", "keys": _keys(auth="c2hvcnQ")}, "The auth secret is not 16 bytes"),
        ({"endpoint": SERVICE + "x", "keys": _keys(auth="!!!!!!!!!!!!!!!!!!!!!!")}, "not 16 bytes"),
    ],
    # The error's words (the keys in a body are made afresh each run: ids must not show them,
    # or pytest-xdist's workers collect different tests).
    ids=lambda value: value if isinstance(value, str) else type(value).__name__,
)
def test_a_bad_subscription_is_refused_with_a_clear_error_and_nothing_written(
    ann: User, body: Any, error: str
) -> None:
    client, token = csrf_client(ann)
    answer = post_json(client, "/notify/push/subscribe", body, token)
    assert answer.status_code == 400
    assert error in answer.json()["error"]["message"]
    assert not PushSubscription.objects.exists()


def test_the_endpoint_needs_a_session_a_csrf_token_and_json(ann: User, settings: Settings) -> None:
    anonymous = Client(enforce_csrf_checks=True)
    anonymous.get("/accounts/login/")
    answer = post_json(
        anonymous, "/notify/push/subscribe", a_subscription(), anonymous.cookies["csrftoken"].value
    )
    assert answer.status_code == 401 and answer.json() == {
        "error": {"code": "signed_out", "message": "Sign in to turn notifications on."}
    }

    client, token = csrf_client(ann)
    assert (
        post_json(client, "/notify/push/subscribe", a_subscription()).status_code == 403
    )  # no token: a forgery
    form = client.post("/notify/push/subscribe", {"endpoint": SERVICE}, headers={"X-CSRFToken": token})
    assert form.status_code == 400 and "Send JSON" in form.json()["error"]["message"]
    assert client.get("/notify/push/subscribe").status_code == 405
    big = post_json(client, "/notify/push/subscribe", {**a_subscription(), "pad": "x" * 5000}, token)
    assert big.status_code == 400 and "too big" in big.json()["error"]["message"]
    assert not PushSubscription.objects.exists()

    settings.VAPID_PRIVATE_KEY = ""  # a site without VAPID keys cannot push
    off = post_json(client, "/notify/push/subscribe", a_subscription(), token)
    assert off.status_code == 503 and "not set up" in off.json()["error"]["message"]
    assert not PushSubscription.objects.exists()


def checked(page: str) -> dict[str, bool]:
    """The push choices' boxes on the account page, ticked or not."""
    boxes = re.findall(r'<input type="checkbox" name="(\w+)" id="push-\w+"( checked)?>', page)
    return {name: bool(tick) for name, tick in boxes}


def test_a_person_keeps_at_most_ten_devices_the_least_used_goes(ann: User) -> None:
    for number in range(push_devices.MAX_DEVICES + 2):
        subscription = push_devices.subscription_from_json(a_subscription(f"device-{number}"))
        push_devices.device_subscribe(user=ann, subscription=subscription)
    kept = set(PushSubscription.objects.values_list("endpoint", flat=True))
    assert len(kept) == push_devices.MAX_DEVICES
    assert SERVICE + f"device-{push_devices.MAX_DEVICES + 1}" in kept  # the newest stays


def test_the_account_page_offers_push_beside_email_and_its_forms_work(ann: User, settings: Settings) -> None:
    client = logged_in(ann)
    page = client.get("/accounts/settings/").content.decode()
    assert page.index('id="notifications"') < page.index('id="push-heading"') < page.index('id="vacation"')
    assert f'data-key="{settings.VAPID_PUBLIC_KEY}"' in page
    assert 'data-worker="/notify/service-worker.js"' in page and "js/push_settings.js" in page
    assert checked(page) == {"turn": True, "invitation": True, "table": True}  # every kind, by default

    saved = client.post("/notify/push/choices", {"turn": "on", "table": "on"})
    assert saved.status_code == 302 and saved["Location"] == "/accounts/settings/#push"
    choices = PushChoices.objects.get(user=ann)
    assert (choices.turn, choices.invitation, choices.table) == (True, False, True)
    assert checked(client.get("/accounts/settings/").content.decode()) == {
        "turn": True, "invitation": False, "table": True
    }  # fmt: skip

    client.post("/notify/push/choices", {"turn": "yes-please", "table": "on"})  # not what the page sends
    client.post("/notify/push/choices", {"turn": "on", "digest": "on"})
    choices.refresh_from_db()
    assert (choices.turn, choices.invitation, choices.table) == (True, False, True)

    device = push_devices.device_subscribe(
        user=ann,
        subscription=push_devices.subscription_from_json(a_subscription()),
        user_agent="Chrome on Android",
    )
    listed = client.get("/accounts/settings/").content.decode()
    assert "Chrome on Android" in listed and "not notified yet" in listed
    bob_client = logged_in(User.objects.create_user(username="bob2", email="b@example.com", password="pw"))
    bob_client.post(f"/notify/push/devices/{device.pk}/remove")  # not his: nothing happens
    assert PushSubscription.objects.exists()
    assert client.post(f"/notify/push/devices/{device.pk}/remove").status_code == 302
    assert not PushSubscription.objects.exists()


def test_a_site_without_vapid_keys_says_so_on_the_account_page(ann: User, settings: Settings) -> None:
    settings.VAPID_PRIVATE_KEY = ""
    page = logged_in(ann).get("/accounts/settings/").content.decode()
    assert "not set up on this site" in page and "push_settings.js" not in page


def test_the_service_worker_is_served_for_the_whole_site(client: Client) -> None:
    answer = client.get("/notify/service-worker.js")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "text/javascript; charset=utf-8"
    assert answer["Service-Worker-Allowed"] == "/"  # the page registers it with the scope "/"
    assert answer["Cache-Control"] == "no-cache"
    source = answer.content.decode()
    assert "showNotification" in source and "notificationclick" in source
    assert 'addEventListener("fetch"' not in source  # it never stands between a page and the site
