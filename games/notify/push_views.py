"""Pages of Web Push: the account page's "Notifications on this device" (drawn here,
``push_settings_section``, as the vacation section is), the JSON endpoint its script
posts a browser's subscription to, the per-kind choices, and the service worker.

Thin: parse, call one write of ``push_devices``, answer.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from games.errors import ErrorCode, http_status
from games.notify import push_devices

# A subscription is a few hundred bytes; anything much bigger is not one.
BODY_MAX = 4096
SECTION = "#push"


def _error(code: ErrorCode, message: str) -> JsonResponse:
    """The site's error document (as the API's): a stable code and words for people."""
    return JsonResponse({"error": {"code": code, "message": message}}, status=http_status(code))


def _person(request: HttpRequest) -> User | None:
    return request.user if isinstance(request.user, User) and request.user.is_authenticated else None


def _json_body(request: HttpRequest) -> object:
    """The request's JSON; raises ``BadSubscription`` saying what is wrong with it."""
    if request.content_type != "application/json":
        raise push_devices.BadSubscription("Send JSON (Content-Type: application/json).")
    if len(request.body) > BODY_MAX:
        raise push_devices.BadSubscription(f"The body is too big ({BODY_MAX} bytes at most).")
    try:
        return json.loads(request.body)
    except (ValueError, UnicodeDecodeError):
        raise push_devices.BadSubscription("The body is not JSON.") from None


# Session and CSRF token, as every form post: the page's script sends the token in the
# X-CSRFToken header. Answers JSON, errors included: {"error": {"code", "message"}} and nothing written.
@require_POST
def device_subscribe(request: HttpRequest) -> JsonResponse:
    """This browser's subscription (``PushSubscription.toJSON()``): kept as one of the
    signed-in person's devices, or its keys brought up to date."""
    user = _person(request)
    if user is None:
        return _error(ErrorCode.SIGNED_OUT, "Sign in to turn notifications on.")
    if not push_devices.push_enabled():
        return _error(ErrorCode.PUSH_OFF, "Notifications on devices are not set up on this site.")
    try:
        subscription = push_devices.subscription_from_json(_json_body(request))
        push_devices.device_subscribe(
            user=user, subscription=subscription, user_agent=request.headers.get("User-Agent", "")
        )
    except push_devices.BadSubscription as error:
        return _error(ErrorCode.BAD_SUBSCRIPTION, str(error))
    return JsonResponse({"subscribed": True, "devices": len(push_devices.devices_of(user))})


@require_POST
def device_unsubscribe(request: HttpRequest) -> JsonResponse:
    """Forget this browser (``{"endpoint": ...}``): it was turned off here."""
    user = _person(request)
    if user is None:
        return _error(ErrorCode.SIGNED_OUT, "Sign in first.")
    try:
        data = _json_body(request)
    except push_devices.BadSubscription as error:
        return _error(ErrorCode.BAD_SUBSCRIPTION, str(error))
    endpoint = data.get("endpoint") if isinstance(data, dict) else None
    if not isinstance(endpoint, str) or not endpoint:
        return _error(
            ErrorCode.BAD_SUBSCRIPTION, 'Say which endpoint to forget: {"endpoint": "https://..."}.'
        )
    return JsonResponse({"forgotten": push_devices.device_unsubscribe(user=user, endpoint=endpoint)})


@login_required
@require_POST
def device_remove(request: HttpRequest, device_id: int) -> HttpResponse:
    """The account page's "Remove" beside a device (a lost phone, an old browser)."""
    assert isinstance(request.user, User)
    if push_devices.device_remove(user=request.user, device_id=device_id):
        messages.success(request, "That device gets no more notifications.")
    else:
        messages.error(request, "No such device: it may have been removed already.")
    return redirect(reverse("account_settings") + SECTION)


@login_required
@require_POST
def choices_update(request: HttpRequest) -> HttpResponse:
    """Which kinds of push the person wants: checkboxes, so an unticked one is absent."""
    assert isinstance(request.user, User)
    unknown = set(request.POST) - {"csrfmiddlewaretoken", *push_devices.KINDS}
    bad = [kind for kind in push_devices.KINDS if request.POST.get(kind, "on") != "on"]
    if unknown or bad:
        messages.error(request, "Those notification choices are not ones this page offers: nothing changed.")
        return redirect(reverse("account_settings") + SECTION)
    push_devices.push_choices_update(
        user=request.user, **{kind: kind in request.POST for kind in push_devices.KINDS}
    )
    messages.success(request, "Your notification choices are saved.")
    return redirect(reverse("account_settings") + SECTION)


def push_settings_section(request: HttpRequest, user: User) -> SafeString:
    """The account settings page's "Notifications on this device" (``settings.ACCOUNT_SETTINGS_SECTIONS``):
    the button its script drives, the kinds of push, and the person's devices. Two queries."""
    choices = push_devices.push_choices_of(user)
    context = {
        "enabled": push_devices.push_enabled(),
        "vapid_public_key": settings.VAPID_PUBLIC_KEY,
        "choices": [
            ("turn", "Your turn, and “about to lose on time”", choices.turn),
            ("invitation", "Invitations and challenges", choices.invitation),
            ("table", "Your tournament tables", choices.table),
        ],
        "devices": push_devices.devices_of(user),
    }
    # Drawn as a template escapes it, so safe inside the page.
    return mark_safe(render_to_string("notify/_push_settings.html", context, request=request))


# -- the service worker -----------------------------------------------------------------

SERVICE_WORKER = "js/service_worker.js"


@cache
def _service_worker_source(path: str) -> bytes:
    return Path(path).read_bytes()


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """static/js/service_worker.js, served from here rather than /static/ so that it can
    control the whole site (``Service-Worker-Allowed: /``: the page registers it with the
    scope ``/``) and is never cached long: a browser checks it for updates on its own."""
    found = finders.find(SERVICE_WORKER)
    assert isinstance(found, str), f"{SERVICE_WORKER} is missing from the static files"
    response = HttpResponse(_service_worker_source(found), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    # The worker fetches nothing and loads no script: it only shows notifications.
    response["Content-Security-Policy"] = "default-src 'none'; img-src 'self'"
    return response
