"""What tournaments offer the core's pages (``games/feature_links.py``, listed in settings)."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from django.utils import timezone
from django.utils.timesince import timeuntil

from accounts.models import User
from games.engine import IllegalAction, get
from games.feature_links import FeatureLink, FeatureSection
from games.tournaments import selectors
from games.tournaments.models import Tournament
from games.tournaments.services import registration_is_open


def nav_link(user: User | AnonymousUser) -> FeatureLink:
    """The navigation's "Tournaments": the list, for everyone."""
    return FeatureLink(text="Tournaments", url=reverse("tournaments:list"))


def tournaments_section(user: User | AnonymousUser) -> FeatureSection | None:
    """The home and play pages' "Tournaments": a few open for registration (each page
    has the Register button) and a few running, with a link to all; None when there is
    neither (settings.HOME_SECTIONS, PLAY_SECTIONS)."""
    shown = selectors.open_and_running()
    if not shown.open and not shown.running:
        return None
    now = timezone.now()
    links = [_link(tournament, _open_hint(tournament, now)) for tournament in shown.open]
    links += [_link(tournament, _running_hint(tournament)) for tournament in shown.running]
    return FeatureSection(
        title="Tournaments",
        id="tournaments",
        links=links,
        more=FeatureLink(text="All tournaments", url=reverse("tournaments:list"), id="all-tournaments"),
    )


def _link(tournament: Tournament, hint: str) -> FeatureLink:
    return FeatureLink(
        text=tournament.name,
        url=reverse("tournaments:detail", args=[tournament.pk]),
        hint=f"{_game_name(tournament.game)} · {hint}",
    )


def _open_hint(tournament: Tournament, now: datetime) -> str:
    entrants = _entrants_in_words(tournament)
    if registration_is_open(tournament, now):
        return f"registration open, starts in {timeuntil(tournament.starts_at, now, depth=1)} · {entrants}"
    if now < tournament.registration_opens_at:
        return f"registration opens in {timeuntil(tournament.registration_opens_at, now, depth=1)}"
    return f"registration closed, starts in {timeuntil(tournament.starts_at, now, depth=1)} · {entrants}"


def _running_hint(tournament: Tournament) -> str:
    round_number = getattr(tournament, "round_number", None)
    playing = f"round {round_number} being played" if round_number else "starting"
    return f"{playing} · {_entrants_in_words(tournament)}"


def _entrants_in_words(tournament: Tournament) -> str:
    entrants = int(getattr(tournament, "entrants", 0))
    return f"{entrants} entrant{'s' if entrants != 1 else ''}"


def _game_name(slug: str) -> str:
    try:
        return get(slug).name
    except IllegalAction:
        return slug
