"""The core reaches the features only through hooks (games/feature_links.py,
games/match_notes.py, games/blocks.py, accounts/settings_sections.py, the match-finished tasks): its
templates name no feature's address, every name a setting lists resolves, and with
every feature's hook emptied the core's pages still answer."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.test import Client
from django.urls import URLPattern, URLResolver
from django.utils.module_loading import import_string

from accounts.models import User
from boomsite.celery import app as celery_app
from games.feature_links import HOOK_SETTINGS
from games.models import Match
from tests.games.helpers import logged_in
from tests.games.tournaments.helpers import make_tournament

TEMPLATES = Path(django_settings.BASE_DIR) / "templates"
# The core's templates: the site's frame, the games' pages and boards, accounts (and
# allauth's, which the site overrides). Each feature's own folder (history/, notify/,
# profiles/, ratings/, review/, tournaments/) may name what it likes.
CORE_TEMPLATES = [
    "base.html",
    "home.html",
    "home/**/*.html",
    "_feature_sections.html",
    "404.html",
    "429.html",
    "games/**/*.html",
    "jinja2/**/*.html",
    "accounts/**/*.html",
    "account/**/*.html",
    "allauth/**/*.html",
]
FEATURES = ["history", "notify", "profiles", "ratings", "review", "social", "tournaments"]
# Where the features answer (boomsite/urls.py): a path written out is a name by other means.
FEATURE_PATHS = ["/players/", "/history", "/ratings", "/review", "/tournaments", "/notify", "/leaderboard"]
# `{% url 'name' %}` in a Django template, `url('name')` in a Jinja2 one.
URL_NAME = re.compile(r"""(?:\{%\s*url\s+|\burl\(\s*)["']([^"']+)["']""")


def feature_url_names() -> set[str]:
    """Every URL name a feature defines, namespaced as templates write it (``ratings:leaderboard``)."""
    names: set[str] = set()
    for feature in FEATURES:
        module = importlib.import_module(f"games.{feature}.urls")
        prefix = f"{module.app_name}:" if getattr(module, "app_name", None) else ""
        for pattern in module.urlpatterns:
            assert not isinstance(pattern, URLResolver), f"{feature}: nested includes are not read here"
            assert isinstance(pattern, URLPattern)
            if pattern.name:
                names.add(prefix + pattern.name)
    return names


def core_templates() -> list[Path]:
    found = {path for pattern in CORE_TEMPLATES for path in TEMPLATES.glob(pattern)}
    return sorted(found)


def feature_references(text: str, names: set[str]) -> list[str]:
    found = [f"url name {name!r}" for name in URL_NAME.findall(text) if name in names]
    found += [f"path {path!r}" for path in FEATURE_PATHS if path in text]
    return found


def test_every_core_template_names_no_feature() -> None:
    names = feature_url_names()
    templates = core_templates()
    assert len(templates) > 20, "the globs found the core's templates"
    offenders = {
        str(path.relative_to(TEMPLATES)): found
        for path in templates
        if (found := feature_references(path.read_text(), names))
    }
    assert offenders == {}


def test_the_template_check_sees_what_the_core_used_to_write() -> None:
    names = feature_url_names()
    assert {"profile", "history", "ratings:leaderboard", "review:page", "tournaments:list"} <= names
    assert {"notify:vacation_begin", "notify:vacation_end"} <= names
    for line in [
        """<a href="{{ url('profile', p.seat.user.username) }}">""",
        """<a href="{% url 'ratings:leaderboard' game.slug %}">""",
        """data-review-url="/matches/{{ match.pk }}/review.json\"""",
        """<li><a href="{% url 'history' %}">History</a></li>""",
        """<li><a href="{% url "tournaments:list" %}">Tournaments</a></li>""",
        """<form method="post" action="{% url 'notify:vacation_end' %}">""",
    ]:
        assert feature_references(line, names), line
    assert not feature_references("""<a href="{% url 'match' match.pk %}">""", names)


# -- every name a setting lists resolves ------------------------------------------------


@pytest.fixture(scope="module")
def registered_tasks() -> set[str]:
    # As a worker does at start: import every installed app's tasks module.
    celery_app.loader.import_default_modules()
    return set(celery_app.tasks)


@pytest.mark.parametrize("name", django_settings.MATCH_FINISHED_TASKS)
def test_every_match_finished_task_is_a_registered_task(name: str, registered_tasks: set[str]) -> None:
    assert name in registered_tasks


@pytest.mark.parametrize("entry", sorted(django_settings.CELERY_BEAT_SCHEDULE))
def test_every_beat_task_is_a_registered_task(entry: str, registered_tasks: set[str]) -> None:
    assert django_settings.CELERY_BEAT_SCHEDULE[entry]["task"] in registered_tasks


HOOKS = ["MATCH_NOTES", "MATCH_OVER_TOLD_BY", "ACCOUNT_SETTINGS_SECTIONS", "BLOCKS", *HOOK_SETTINGS]


@pytest.mark.parametrize(
    "path", [path for hook in HOOKS for path in getattr(django_settings, hook)], ids=lambda path: path
)
def test_every_hook_function_a_setting_lists_imports_to_a_callable(path: str) -> None:
    assert callable(import_string(path))


def test_every_hook_setting_lists_something() -> None:
    # An empty list is allowed by the code (no feature offers anything) but not by this
    # site: each hook exists because a feature uses it.
    assert all(getattr(django_settings, hook) for hook in HOOKS)


# -- without the features' hooks, the core's pages still answer ---------------------------


@pytest.mark.django_db
def test_with_every_feature_hook_empty_the_core_pages_answer_without_feature_links(
    settings: object,
    two_player_match: Match,
    ann: User,
    make_person: Callable[..., User],
) -> None:
    for hook in HOOKS:
        setattr(settings, hook, [])
    make_tournament(ann, name="Spring Open")  # what the home and play pages' sections would list
    match_id = two_player_match.pk
    people = logged_in(ann)
    pages = {
        "/": Client(),
        "/play/": people,
        "/play/go-fox/": people,
        f"/matches/{match_id}/": people,
        f"/matches/{match_id}/board": people,
        f"/matches/{match_id}/replay": people,
        "/accounts/settings/": people,
    }
    for url, client in pages.items():
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert not [path for path in FEATURE_PATHS if path in html], url
        assert 'id="vacation"' not in html and "Spring Open" not in html, url


@pytest.mark.django_db
def test_the_features_offer_their_links_through_the_hooks(two_player_match: Match, ann: User) -> None:
    people = logged_in(ann)
    home = people.get("/").content.decode()
    assert '<li><a href="/history/">History</a></li>' in home
    assert '<li><a href="/tournaments/">Tournaments</a></li>' in home
    assert f'<li><a href="/players/{ann.username}/">{ann.public_name}</a></li>' in home
    assert "/players/" not in Client().get("/").content.decode()  # a visitor has no profile of their own
    game = Client().get("/play/go-fox/").content.decode()
    assert 'href="/play/go-fox/leaderboard" id="leaderboard-link">Leaderboard</a>' in game
    assert "leaderboard-link" not in Client().get("/play/its-a-bomb/").content.decode()  # not rated
    match = people.get(f"/matches/{two_player_match.pk}/").content.decode()
    assert f'<a href="/players/{ann.username}/">' in match
    # A tournament open for registration: the home and play pages' sections list it.
    tournament = make_tournament(ann, name="Spring Open")
    for url in ("/", "/play/"):
        page = Client().get(url).content.decode()
        assert '<h2 id="tournaments">Tournaments</h2>' in page, url
        assert f'<a href="/tournaments/{tournament.pk}/">Spring Open</a>' in page, url
    settings_page = people.get("/accounts/settings/").content.decode()
    assert '<h2 id="vacation">Vacation</h2>' in settings_page
    assert 'action="/notify/vacation/begin"' in settings_page
