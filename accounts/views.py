from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts.forms import AccountSettingsForm, NotificationSettingsForm
from accounts.models import DEFAULT_API_SCOPES, ApiScope, User
from accounts.services import (
    BotAccountError,
    TokenError,
    api_token_create,
    api_token_revoke,
    user_become_bot_account,
    user_update_notifications,
    user_update_settings,
)
from accounts.settings_sections import settings_sections


@login_required
def account_settings(request: HttpRequest) -> HttpResponse:
    assert isinstance(request.user, User)
    form = AccountSettingsForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        user_update_settings(
            user=request.user,
            display_name=form.cleaned_data["display_name"],
            time_zone=form.cleaned_data["time_zone"],
        )
        messages.success(request, "Your settings are saved.")
        return redirect("account_settings")
    return _settings_page(request, request.user, form=form)


@login_required
@require_POST
def notification_settings(request: HttpRequest) -> HttpResponse:
    assert isinstance(request.user, User)
    form = NotificationSettingsForm(request.POST, instance=request.user)
    if form.is_valid():
        try:
            user_update_notifications(
                user=request.user,
                turn=form.cleaned_data["notify_turn"],
                invitation=form.cleaned_data["notify_invitation"],
                game_over=form.cleaned_data["notify_game_over"],
                digest_hour=form.cleaned_data["digest_hour"],
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, "Your email settings are saved.")
            return redirect(reverse("account_settings") + "#notifications")
    return _settings_page(request, User.objects.get(pk=request.user.pk), notifications=form, status=400)


def _settings_page(
    request: HttpRequest,
    user: User,
    *,
    form: AccountSettingsForm | None = None,
    notifications: NotificationSettingsForm | None = None,
    status: int = 200,
) -> HttpResponse:
    """The account page: settings, email notifications, the sections other apps add
    (``settings.ACCOUNT_SETTINGS_SECTIONS``: notify's vacation forms, since accounts import
    nothing from games) and API tokens."""
    return render(
        request,
        "accounts/settings.html",
        {
            "form": form or AccountSettingsForm(instance=user),
            "notifications": notifications or NotificationSettingsForm(instance=user),
            "sections": settings_sections(request, user),
            "tokens": user.api_tokens.all(),
            "new_token": request.session.pop("new_api_token", None),
            "scopes": [(scope.value, scope.label, scope.value in DEFAULT_API_SCOPES) for scope in ApiScope],
        },
        status=status,
    )


@login_required
@require_POST
def api_token_new(request: HttpRequest) -> HttpResponse:
    assert isinstance(request.user, User)
    try:
        token, secret = api_token_create(
            user=request.user, name=request.POST.get("name", ""), scopes=request.POST.getlist("scopes")
        )
    except TokenError as error:
        messages.error(request, str(error))
    else:
        # Shown once on the next page, then gone: only its hash is stored.
        request.session["new_api_token"] = {"name": token.name, "secret": secret}
    return redirect("account_settings")


@login_required
@require_POST
def api_token_delete(request: HttpRequest, token_id: int) -> HttpResponse:
    assert isinstance(request.user, User)
    try:
        api_token_revoke(user=request.user, token_id=token_id)
    except TokenError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, "The token is revoked: programs using it are refused from now on.")
    return redirect("account_settings")


@login_required
@require_POST
def bot_account(request: HttpRequest) -> HttpResponse:
    """Make this account a bot account for a program, for good (docs/api.md)."""
    assert isinstance(request.user, User)
    if request.POST.get("confirm") != "yes":
        messages.error(request, "Tick the box to confirm: a bot account cannot be turned back.")
    else:
        try:
            user_become_bot_account(user=request.user)
        except BotAccountError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, "This is a bot account now: your program plays it through the API.")
    return redirect(reverse("account_settings") + "#bot-account")
