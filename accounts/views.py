from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from accounts.forms import AccountSettingsForm
from accounts.models import User
from accounts.services import user_update_settings


def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(User, username=username, is_active=True)
    return render(request, "accounts/profile.html", {"player": player})


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
    return render(request, "accounts/settings.html", {"form": form})
