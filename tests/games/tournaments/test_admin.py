"""Organisers set tournaments up in the admin: bad settings are refused field by field
and nothing is saved; the actions open, start, cancel and re-run advancement; a started
tournament's settings are read-only; rounds and tables are never edited there."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.utils import timezone

from accounts.models import User
from accounts.services import DEMO_ORGANISER_USERNAME, demo_organiser_create_once
from games.engine import get
from games.forms import MatchCreateForm, time_control_choices
from games.models import Match
from games.services import bot_account
from games.tournaments.admin import option_games, option_prefix
from games.tournaments.models import Round, Tournament
from games.tournaments.setup import ORGANISERS_GROUP
from tests.conftest import ensure_bot_accounts
from tests.games.helpers import logged_in
from tests.games.tournaments.helpers import enter, make_tournament, organisers_group

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


def option_defaults() -> dict[str, str]:
    """Every game's option fields at their defaults, as the browser sends them (the
    form shows each game's group; only the chosen game's is read)."""
    return {
        f"{option_prefix(game)}{option.name}": ("on" if option.default else "")
        if option.kind == "bool"
        else str(option.default)
        for game in option_games()
        for option in game.options
    }


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
        **option_defaults(),
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
        ({"game": "its-a-bomb"}, "game", "cooperative"),
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
        ({"turn_limit": "1234"}, "turn_limit", "valid choice"),
        ({"turn_limit": "0"}, "turn_limit", "valid choice"),
        ({"turn_limit": ""}, "turn_limit", "required"),
        (
            {"game": "booby-trap", "options__booby_trap__variant": "solitaire"},
            "options__booby_trap__variant",
            "table of 2",
        ),
        (
            {"game": "ka-blam", "options__ka_blam__target": "5"},
            "options__ka_blam__target",
            "greater than or equal to 10",
        ),
        ({"game": "ka-blam", "options__ka_blam__target": ""}, "options__ka_blam__target", "required"),
        (
            {"game": "ka-blam", "options__ka_blam__length": "endless"},
            "options__ka_blam__length",
            "valid choice",
        ),
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


# -- the organiser's form (issue 33) ---------------------------------------------------------


def add_page_form(admin: Client) -> Any:
    return admin.get("/admin/tournaments/tournament/add/").context["adminform"].form


def test_the_games_options_are_fields_built_by_the_lobbys_builder_not_json(admin: Client) -> None:
    page = admin.get("/admin/tournaments/tournament/add/").content.decode()
    assert 'name="options"' not in page
    built = add_page_form(admin).fields
    lobby = MatchCreateForm(get("ka-blam")).fields
    for name in ("length", "target"):
        mine, theirs = built[f"options__ka_blam__{name}"], lobby[f"option_{name}"]
        assert type(mine) is type(theirs) and mine.label == theirs.label
        assert getattr(mine, "choices", None) == getattr(theirs, "choices", None)
    assert 'name="options__ka_blam__target"' in page and 'min="10"' in page and 'max="300"' in page
    assert "Read only when the game is Ka-Blam!." in page
    # Cooperative games cannot be a tournament's: no options group for them.
    assert "options__its_a_bomb__scenario" not in built


def test_the_time_control_is_the_lobbys_list_in_words_without_no_limit(admin: Client) -> None:
    choices = dict(add_page_form(admin).fields["turn_limit"].choices)
    assert choices["3600"] == "1 hour per turn" and choices["604800"] == "7 days per turn"
    assert "No time limit" not in choices.values()
    assert [value for value in choices if value] == [value for value, _ in time_control_choices() if value]


def test_the_chosen_games_options_are_saved_and_the_other_games_ignored(admin: Client) -> None:
    response = admin.post(
        "/admin/tournaments/tournament/add/",
        form(
            game="ka-blam",
            options__ka_blam__length="short",
            options__ka_blam__target="50",
            options__dont_go_boom__rounds="99",  # another game's, out of range: never read
        ),
    )
    assert response.status_code == 302, response.context["adminform"].form.errors
    assert Tournament.objects.get().options == {"length": "short", "target": 50}


def test_every_problem_is_shown_at_once(admin: Client) -> None:
    """Issue 33: the form returned as soon as one field had an error of its own, so the
    setup problems arrived one group per save."""
    now = timezone.now()
    response = admin.post(
        "/admin/tournaments/tournament/add/",
        form(
            table_size="two",  # malformed: its own error
            swiss_rounds="",
            turn_limit="",
            registration_closes_at=now - timedelta(days=1),
            starts_at=now - timedelta(days=2),
            game="booby-trap",
            options__booby_trap__variant="solitaire",
            bot_fill_level="grandmaster",
            max_entrants="1",
        ),
    )
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert set(errors) >= {
        "table_size",
        "swiss_rounds",
        "turn_limit",
        "registration_closes_at",
        "starts_at",
        "bot_fill_level",
        "max_entrants",
    }, errors
    assert "whole number" in " ".join(errors["table_size"]).lower()
    assert not Tournament.objects.exists()


def test_the_publish_box_publishes_on_save_and_bad_input_changes_nothing(admin: Client) -> None:
    response = admin.post("/admin/tournaments/tournament/add/", form(publish="on", swiss_rounds=""))
    assert response.status_code == 200 and not Tournament.objects.exists()

    response = admin.post("/admin/tournaments/tournament/add/", form(publish="on"), follow=True)
    tournament = Tournament.objects.get()
    assert tournament.status == Tournament.Status.REGISTRATION
    assert "Winter Open is published." in " ".join(str(message) for message in response.context["messages"])
    page = admin.get(f"/admin/tournaments/tournament/{tournament.pk}/change/").content.decode()
    assert 'name="publish"' not in page  # published already


def test_a_draft_saved_without_publishing_stays_a_draft_and_is_published_later(admin: Client) -> None:
    admin.post("/admin/tournaments/tournament/add/", form())
    draft = Tournament.objects.get()
    assert draft.status == Tournament.Status.DRAFT
    change = f"/admin/tournaments/tournament/{draft.pk}/change/"
    assert 'name="publish"' in admin.get(change).content.decode()
    # A bad change with the box ticked: nothing saved, not published.
    admin.post(change, form(publish="on", name="Renamed", table_size="9"))
    draft.refresh_from_db()
    assert draft.status == Tournament.Status.DRAFT and draft.name == "Winter Open" and draft.table_size == 2
    admin.post(change, form(publish="on", name="Renamed"))
    draft.refresh_from_db()
    assert draft.status == Tournament.Status.REGISTRATION and draft.name == "Renamed"


def test_view_on_site_links_to_the_tournaments_page(admin: Client, root: User) -> None:
    tournament = make_tournament(root)
    page = admin.get(f"/admin/tournaments/tournament/{tournament.pk}/change/").content.decode()
    assert f'href="/tournaments/{tournament.pk}/"' in page and "View on site" in page


def test_a_started_tournaments_settings_read_in_words(
    admin: Client, root: User, make_person: Callable[..., User]
) -> None:
    tournament = make_tournament(
        root,
        game="ka-blam",
        options={"length": "short", "target": 50},
        bot_fill_level="basic",
        max_entrants=4,
    )
    enter(tournament, [make_person("p1")])
    run_action(admin, "start_now", tournament)
    page = admin.get(f"/admin/tournaments/tournament/{tournament.pk}/change/").content.decode()
    for words in ("Ka-Blam!", "1 hour per turn", "4 places", "Fill up to the field size with basic bots"):
        assert words in page, words
    assert "Game length: Short" in page and "Points to win (long game): 50" in page
    assert "3600" not in page and '"length"' not in page and "&quot;length&quot;" not in page
    # Its name may still change; saving it does not trip over the settings it no longer shows.
    response = admin.post(
        f"/admin/tournaments/tournament/{tournament.pk}/change/",
        {"name": "Renamed", "description": "", **{key: value for key, value in form().items() if "-" in key}},
    )
    assert response.status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).name == "Renamed"


def test_the_change_page_previews_round_one_with_the_bots_that_would_fill(
    admin: Client, root: User, make_person: Callable[..., User]
) -> None:
    ensure_bot_accounts()
    tournament = make_tournament(
        root, bot_fill_level="random", max_entrants=8, seeding=Tournament.Seeding.RATING
    )
    enter(tournament, [make_person("ann", display_name="Ann"), make_person("bob", display_name="Bob")])
    page = admin.get(f"/admin/tournaments/tournament/{tournament.pk}/change/")
    preview = page.context["preview"]
    assert preview.people == 2 and preview.bots == 6 and not preview.why_not
    bot = bot_account("random", get("go-fox")).public_name
    assert preview.tables == [
        ["Ann", f"{bot} 6"],
        [f"{bot} 2", f"{bot} 3"],
        ["Bob", f"{bot} 5"],
        [f"{bot} 1", f"{bot} 4"],
    ]
    text = page.content.decode()
    assert "First round (provisional)" in text and "seeds are set when the tournament starts" in text
    assert not page.context["field_warning"]
    # Nothing was written: no bot entries, no seeds.
    assert tournament.entries.count() == 2 and not tournament.entries.filter(seed__isnull=False).exists()


def test_the_change_page_warns_of_a_field_size_with_byes_and_says_who_has_them(
    admin: Client, root: User, make_person: Callable[..., User]
) -> None:
    tournament = make_tournament(root, bot_fill_level="random", max_entrants=6)
    enter(tournament, [make_person("ann", display_name="Ann")])
    page = admin.get(f"/admin/tournaments/tournament/{tournament.pk}/change/")
    assert page.context["field_warning"].startswith("With 6 places, round 1 has 2 tables of 2 and 2 byes.")
    assert page.context["preview"].byes[0] == "Ann"
    empty = make_tournament(root, bot_fill_level="random", max_entrants=8)
    said = admin.get(f"/admin/tournaments/tournament/{empty.pk}/change/").content.decode()
    assert "Nobody has entered yet" in said


def test_saving_a_field_size_with_byes_warns_but_saves(admin: Client) -> None:
    response = admin.post(
        "/admin/tournaments/tournament/add/",
        form(format="single_elimination", swiss_rounds="", max_entrants="6"),
        follow=True,
    )
    said = " ".join(str(message) for message in response.context["messages"])
    assert "With 6 places, round 1 has 2 tables of 2 and 2 byes" in said
    assert Tournament.objects.get().max_entrants == 6


# -- the Organisers group -------------------------------------------------------------------


@pytest.fixture
def organiser(make_person: Callable[..., User]) -> User:
    person = make_person("olga", is_staff=True)
    person.groups.add(organisers_group())
    return person


def test_the_organisers_group_is_made_by_a_migration_with_the_permissions_to_run_tournaments() -> None:
    group = organisers_group()
    assert set(group.permissions.values_list("codename", flat=True)) == {
        "add_tournament", "change_tournament", "delete_tournament", "view_tournament",
        "view_entry", "view_round", "view_table",
    }  # fmt: skip
    migration = importlib.import_module("games.tournaments.migrations.0002_organisers_group")
    assert migration.GROUP == ORGANISERS_GROUP


def test_an_organiser_who_is_not_superuser_sets_up_and_runs_a_tournament(
    organiser: User, make_person: Callable[..., User]
) -> None:
    staff = logged_in(organiser)
    assert not organiser.is_superuser
    response = staff.post(
        "/admin/tournaments/tournament/add/", form(format="single_elimination", swiss_rounds="")
    )
    assert response.status_code == 302
    tournament = Tournament.objects.get()
    assert tournament.created_by == organiser
    assert "published" in run_action(staff, "open_registration", tournament)
    enter(tournament, [make_person(f"p{number}") for number in range(2)])
    assert "started" in run_action(staff, "start_now", tournament)
    assert "waiting for tables" in run_action(staff, "rerun_advancement", tournament)
    assert "cancelled" in run_action(staff, "cancel", tournament)
    assert staff.get(f"/admin/tournaments/tournament/{tournament.pk}/change/").status_code == 200
    assert staff.get("/admin/tournaments/table/").status_code == 200


def test_staff_without_the_permission_cannot_act_on_tournaments(
    root: User, make_person: Callable[..., User]
) -> None:
    tournament = make_tournament(root, status=Tournament.Status.DRAFT)
    viewer = make_person("vic", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_tournament"))
    staff = logged_in(viewer)
    listing = staff.get("/admin/tournaments/tournament/").content.decode()
    assert "open_registration" not in listing and "start_now" not in listing
    staff.post(
        "/admin/tournaments/tournament/", {"action": "open_registration", "_selected_action": [tournament.pk]}
    )
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.DRAFT
    assert staff.get("/admin/tournaments/tournament/add/").status_code == 403
    # They may look: the settings in words, nothing to change.
    looked = staff.get(f"/admin/tournaments/tournament/{tournament.pk}/change/").content.decode()
    assert "1 hour per turn" in looked and 'name="turn_limit"' not in looked
    nobody = logged_in(make_person("stan", is_staff=True))
    assert nobody.get("/admin/tournaments/tournament/").status_code == 403


def test_the_demo_organiser_is_staff_in_the_organisers_group_and_not_superuser() -> None:
    organisers_group()
    password = demo_organiser_create_once(group_name=ORGANISERS_GROUP)
    assert password
    demo = User.objects.get(username=DEMO_ORGANISER_USERNAME)
    assert demo.is_staff and not demo.is_superuser and demo.check_password(password)
    assert demo.has_perm("tournaments.add_tournament") and demo.has_perm("tournaments.change_tournament")
    assert demo_organiser_create_once(group_name=ORGANISERS_GROUP) is None


def test_the_change_page_links_the_tournaments_downloads(admin: Client, root: User) -> None:
    tournament = make_tournament(root, status=Tournament.Status.DRAFT)
    page = admin.get(f"/admin/tournaments/tournament/{tournament.pk}/change/").content.decode()
    for address in (
        f"/tournaments/{tournament.pk}/export.csv?what=tables",
        f"/tournaments/{tournament.pk}/export.csv?what=standings",
        f"/tournaments/{tournament.pk}/export.json",
    ):
        assert f'href="{address}"' in page
        assert admin.get(address).status_code == 200  # staff may download a draft's too
