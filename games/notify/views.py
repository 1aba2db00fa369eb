"""Pages of notifications: the one-click unsubscribe, and vacation (the account page's
vacation section is drawn here, ``vacation_settings_section``, and its forms post here,
since accounts import nothing from games).

Thin: parse, call one service, answer.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from accounts.models import User
from games.errors import MatchError
from games.notify import emails, services, tokens
from games.notify.forms import VacationForm
from games.services import clocks


# No login and no CSRF token: the signed token is the authority. A mail client's
# one-click POST (RFC 8058) has neither a session nor a form, and a forged request
# could only do what the link's owner asked for, to that owner's own emails.
@csrf_exempt
@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET asks with a button and changes nothing (mail scanners follow links); POST,
    from that button or a mail client, turns that kind of email off."""
    try:
        user, kind = tokens.read(token)
    except tokens.BadToken:
        return render(request, "notify/bad_link.html", status=400)
    context = {"kind_words": emails.KIND_WORDS[kind], "has_digest": services.digest_offered(kind)}
    if request.method == "POST":
        services.unsubscribe(user=user, kind=kind)
        return render(request, "notify/unsubscribed.html", context)
    return render(request, "notify/unsubscribe.html", context)


@login_required
@require_POST
def vacation_begin(request: HttpRequest) -> HttpResponse:
    assert isinstance(request.user, User)
    form = VacationForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Say how many days you will be away: a whole number, 1 or more.")
        return redirect("account_settings")
    try:
        user = clocks.vacation_begin(user=request.user, days=form.cleaned_data["days"])
    except MatchError as error:
        messages.error(request, str(error))
    else:
        assert user.vacation_until is not None
        until = date_format(timezone.localtime(user.vacation_until), "l j F Y, H:i")
        messages.success(request, f"Enjoy your vacation: your clocks and emails wait until {until}.")
    return redirect("account_settings")


@login_required
@require_POST
def vacation_end(request: HttpRequest) -> HttpResponse:
    assert isinstance(request.user, User)
    was_away = request.user.vacation_until is not None
    clocks.vacation_end(user=request.user)
    if was_away:
        messages.success(request, "Welcome back: your clocks run again.")
    else:
        messages.info(request, "You were not on vacation.")
    return redirect("account_settings")


def vacation_settings_section(request: HttpRequest, user: User) -> SafeString:
    """The account settings page's vacation section (``settings.ACCOUNT_SETTINGS_SECTIONS``):
    the bank of days and the form that begins a vacation, or the one that ends it."""
    now = timezone.now()
    context = {
        "on_vacation": user.on_vacation(now),
        "vacation_until": user.vacation_until,
        "vacation_days": user.vacation_days_available(now),
    }
    # Drawn as a template escapes it, so safe inside the page.
    return mark_safe(render_to_string("notify/_vacation_settings.html", context, request=request))
