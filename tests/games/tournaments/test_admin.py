"""Organisers set tournaments up in the admin: bad settings are refused field by field
and nothing is saved; the actions open, start, cancel and re-run advancement; a started
tournament's settings are read-only; rounds and tables are never edited there."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games.models import Match
from games.tournaments.models import Round, Tournament
from tests.games.helpers import logged_in
from tests.games.tournaments.helpers import enter, make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def root() -> User:
    return User.objects.create_superuser(username="root", email="root@example.com", password="x")


@pytest.fixture
def admin(root: User) -> Client:
    return logged_in(root)


def moment(value: datetime) -> dict[str, str]:
    local = timezone.localtime(value)
    return {"0": local.strftime("%Y-%m-%d"), "1": local.strftime("%H:%M:%S")}


def form(**changes: Any) -> dict[str, str]:
    now = timezone.now()
    times = {
        "registration_opens_at": now,
        "registration_closes_at": now + timedelta(days=1),
        "starts_at": now + timedelta(days=1, hours=1),
    }
    times.update({key: value for key, value in changes.items() if key in times})
    data = {
        "name": "Winter Open",
        "description": "",
        "game": "go-fox",
        "options": "{}",
        "format": "swiss",
        "table_size": "2",
        "advance": "1",
        "swiss_rounds": "5",
        "max_entrants": "32",
        "seeding": "rating",
        "turn_limit": "86400",
        "timeouts_to_forfeit": "2",
        "bot_fill_level": "",
        "rated": "on",
        **{f"{key}_{part}": text for key, value in times.items() for part, text in moment(value).items()},
        "entries-TOTAL_FORMS": "0", "entries-INITIAL_FORMS": "0",
        "rounds-TOTAL_FORMS": "0", "rounds-INITIAL_FORMS": "0",
    }  # fmt: skip
    data.update({key: str(value) for key, value in changes.items() if key not in times})
    return data


def test_good_settings_make_a_draft_owned_by_the_organiser(admin: Client, root: User) -> None:
    response = admin.post("/admin/tournaments/tournament/add/", form())
    assert response.status_code == 302, response.content.decode()[:3000]
    tournament = Tournament.objects.get()
    assert tournament.status == Tournament.Status.DRAFT and tournament.created_by == root
    assert tournament.swiss_rounds == 5 and tournament.turn_limit == 86400


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"table_size": "7"}, "table_size", "tables of 2 to 6"),
        ({"game": "its-a-bomb", "options": '{"scenario": "training"}'}, "game", "cooperative"),
        ({"starts_at": timezone.now() + timedelta(hours=2)}, "starts_at", "before registration closes"),
        (
            {"registration_closes_at": timezone.now() - timedelta(days=1)},
            "registration_closes_at",
            "after it opens",
        ),
        ({"swiss_rounds": ""}, "swiss_rounds", "number of rounds"),
        ({"format": "round_robin"}, "swiss_rounds", "leave it empty"),
        (
            {"format": "single_elimination", "swiss_rounds": "", "table_size": "4", "advance": "4"},
            "advance",
            "1 to 3",
        ),
        ({"advance": "2"}, "advance", "Only single elimination"),
        ({"turn_limit": "1234"}, "turn_limit", "time control"),
        ({"turn_limit": ""}, "turn_limit", "required"),
        ({"game": "booby-trap", "options": '{"variant": "solitaire"}'}, "options", "table of 2"),
        ({"options": '{"colour": "red"}'}, "options", "colour"),
        ({"bot_fill_level": "grandmaster"}, "bot_fill_level", "valid choice"),
        ({"format": "round_robin", "swiss_rounds": "", "max_entrants": "64"}, "max_entrants", "at most 32"),
        ({"max_entrants": "1"}, "max_entrants", ""),
        (
            {"format": "single_elimination", "swiss_rounds": "", "table_size": "4", "advance": "3"},
            "advance",
            "divide",
        ),
        ({"max_entrants": "4"}, "swiss_rounds", "at most 3 rounds"),
    ],
)
def test_bad_settings_are_refused_on_their_field_and_nothing_is_saved(
    admin: Client, changes: dict[str, Any], field: str, words: str
) -> None:
    response = admin.post("/admin/tournaments/tournament/add/", form(**changes))
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert field in errors, errors
    assert words.lower() in " ".join(errors[field]).lower(), errors
    assert not Tournament.objects.exists()


def run_action(admin: Client, action: str, tournament: Tournament) -> str:
    response = admin.post(
        "/admin/tournaments/tournament/",
        {"action": action, "_selected_action": [tournament.pk]},
        follow=True,
    )
    assert response.status_code == 200
    return " ".join(str(message) for message in response.context["messages"])


def test_the_actions_open_start_rerun_and_cancel(
    admin: Client, root: User, make_person: Callable[..., User]
) -> None:
    tournament = make_tournament(root, status=Tournament.Status.DRAFT)
    assert "published" in run_action(admin, "open_registration", tournament)
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.REGISTRATION
    assert "already registration" in run_action(admin, "open_registration", tournament)
    enter(tournament, [make_person(f"p{number}") for number in range(4)])
    assert "started" in run_action(admin, "start_now", tournament)
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert "waiting for tables" in run_action(admin, "rerun_advancement", tournament)
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert "cannot start" in run_action(admin, "start_now", tournament)
    assert "cancelled" in run_action(admin, "cancel", tournament)
    cancelled = Tournament.objects.get(pk=tournament.pk)
    assert cancelled.status == Tournament.Status.CANCELLED and "root" in cancelled.cancelled_because


def test_a_started_tournaments_settings_are_read_only(
    admin: Client, root: User, make_person: Callable[..., User]
) -> None:
    tournament = make_tournament(root)
    enter(tournament, [make_person(f"p{number}") for number in range(2)])
    run_action(admin, "start_now", tournament)
    page = admin.get(f"/admin/tournaments/tournament/{tournament.pk}/change/").content.decode()
    assert 'name="table_size"' not in page and 'name="format"' not in page
    admin.post(f"/admin/tournaments/tournament/{tournament.pk}/change/", form(table_size="4", name="Renamed"))
    assert Tournament.objects.get(pk=tournament.pk).table_size == 2


def test_tables_are_shown_and_never_edited(admin: Client) -> None:
    assert admin.get("/admin/tournaments/table/").status_code == 200
    assert admin.get("/admin/tournaments/table/add/").status_code == 403


def test_only_a_draft_may_be_deleted_and_only_one_at_a_time(
    admin: Client, root: User, make_person: Callable[..., User]
) -> None:
    draft = make_tournament(root, status=Tournament.Status.DRAFT)
    published = make_tournament(root)
    enter(published, [make_person("p1")])
    assert admin.get(f"/admin/tournaments/tournament/{published.pk}/delete/").status_code == 403
    assert "delete_selected" not in admin.get("/admin/tournaments/tournament/").content.decode()
    assert "draft, shown to nobody" in run_action(admin, "cancel", draft)
    assert admin.post(f"/admin/tournaments/tournament/{draft.pk}/delete/", {"post": "yes"}).status_code == 302
    assert not Tournament.objects.filter(pk=draft.pk).exists()
    assert Tournament.objects.filter(pk=published.pk).exists()


def test_start_now_on_a_draft_nobody_entered_is_refused_though_bots_would_fill_it(
    admin: Client, root: User, client: Client
) -> None:
    """Issue 33, bug 1: it ran a tournament of bots only, listed it ("Won by Random Bot
    1") and could no longer be deleted. Bots fill the places beside people."""
    draft = make_tournament(root, name="Empty Cup", status=Tournament.Status.DRAFT, bot_fill_level="random")
    said = run_action(admin, "start_now", draft)
    assert "nobody has entered" in said and "stays a draft" in said
    draft.refresh_from_db()
    assert draft.status == Tournament.Status.DRAFT and draft.started_at is None
    assert not draft.entries.exists() and not Match.objects.exists()
    assert "Empty Cup" not in client.get("/tournaments/").content.decode()
    # Still a draft, so the organiser can delete it.
    deleted = admin.post(f"/admin/tournaments/tournament/{draft.pk}/delete/", {"post": "yes"}, follow=True)
    assert deleted.status_code == 200 and not Tournament.objects.filter(pk=draft.pk).exists()
