"""An organiser runs a tournament from the admin without knowing the code (issue 33):
staff in the Organisers group, not superuser, logs in at /admin/, adds an 8-place
single elimination of Go Fox! filled with bots through the form (no JSON, no seconds),
publishes it as they save, sees round 1 previewed as two friends register on the site,
starts it from the admin, and the tournament's page names the winner once the tables
are played (the friends resign; the bots play theirs on the real Celery worker)."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.utils import timezone

from accounts.models import User
from games.models import Match
from games.services import match_resign
from games.tournaments import formats
from games.tournaments.models import Entry, Tournament
from games.tournaments.selectors import format_state
from tests.browser.axe import serious_findings
from tests.browser.helpers import log_in, off_the_event_loop
from tests.conftest import ensure_bot_accounts, wait_for
from tests.games.tournaments.helpers import organisers_group, tables_of

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def fill_moment(page: Any, field: str, moment: Any) -> None:
    """The admin's split date and time inputs."""
    local = timezone.localtime(moment)
    page.fill(f"#id_{field}_0", local.strftime("%Y-%m-%d"))
    page.fill(f"#id_{field}_1", local.strftime("%H:%M:%S"))


def register_on_the_site(browser: Any, live_site: str, person: User, tournament: Tournament) -> None:
    context = browser.new_context()
    log_in(context, live_site, person)
    page = context.new_page()
    page.goto(f"{live_site}/tournaments/{tournament.pk}/")
    page.click("#register")
    page.wait_for_url(re.compile(rf"/tournaments/{tournament.pk}/$"))
    assert "You are registered" in page.inner_text(".messages")
    context.close()


def test_an_organiser_sets_up_publishes_starts_and_watches_an_eight_place_bracket_end(
    live_site: str, browser: Any
) -> None:
    ensure_bot_accounts()
    organiser = User.objects.create_user(username="olga", is_staff=True)
    # Hashed as the site hashes (the test process's fast hasher is not on the site's list).
    hasher = PBKDF2PasswordHasher()
    User.objects.filter(pk=organiser.pk).update(
        password=hasher.encode("a long organiser password", hasher.salt())
    )
    organiser.groups.add(organisers_group())
    friends = [
        User.objects.create_user(username=name, display_name=name.title(), email=f"{name}@example.com")
        for name in ("ann", "bob")
    ]

    context = browser.new_context()
    admin = context.new_page()
    admin.goto(f"{live_site}/admin/")
    admin.fill("#id_username", "olga")
    admin.fill("#id_password", "a long organiser password")
    admin.click("input[type=submit]")
    admin.wait_for_selector("#content-main")
    admin.goto(f"{live_site}/admin/tournaments/tournament/add/")

    # The form, in words: the game's options show for the chosen game only (Ka-Blam!'s
    # hide once Go Fox!, which has none, is chosen), and the time control is a list.
    admin.select_option("#id_game", "ka-blam")
    assert admin.is_visible("fieldset.game-options-ka-blam")
    assert serious_findings(admin) == []
    admin.fill("#id_name", "Friends Cup")
    admin.select_option("#id_game", label="Go Fox!")
    assert not admin.is_visible("fieldset.game-options-ka-blam")
    assert admin.locator("textarea[name=options]").count() == 0
    admin.select_option("#id_format", label="Single elimination")
    admin.fill("#id_table_size", "2")
    admin.fill("#id_advance", "1")
    admin.fill("#id_max_entrants", "8")
    admin.select_option("#id_bot_fill_level", label="Fill up to the field size with random bots")
    now = timezone.now()
    fill_moment(admin, "registration_opens_at", now - timedelta(days=1))
    fill_moment(admin, "registration_closes_at", now + timedelta(days=2))
    fill_moment(admin, "starts_at", now + timedelta(days=2, hours=1))
    admin.select_option("#id_turn_limit", label="1 hour per turn")
    admin.check("#id_publish")
    admin.click("input[name=_save]")
    admin.wait_for_selector(".messagelist")
    assert "Friends Cup is published." in admin.inner_text(".messagelist")
    tournament = Tournament.objects.get(name="Friends Cup")
    assert tournament.status == Tournament.Status.REGISTRATION and tournament.created_by == organiser
    assert tournament.max_entrants == 8 and tournament.turn_limit == 3600 and tournament.options == {}

    for friend in friends:
        register_on_the_site(browser, live_site, friend, tournament)

    # The change page: round 1 previewed (provisional) with the six bots that would fill.
    admin.goto(f"{live_site}/admin/tournaments/tournament/{tournament.pk}/change/")
    preview = admin.inner_text("#first-round-preview")
    assert "Provisional" in preview and preview.count("Table ") == 4
    assert "Ann" in preview and "Bob" in preview
    assert admin.get_attribute("a.viewsitelink", "href").endswith(f"/tournaments/{tournament.pk}/")
    assert serious_findings(admin) == []

    # Start now, from the list's actions.
    admin.goto(f"{live_site}/admin/tournaments/tournament/")
    admin.check(f"input[name=_selected_action][value='{tournament.pk}']")
    admin.select_option("select[name=action]", "start_now")
    admin.click("button[name=index]")
    admin.wait_for_selector(".messagelist")
    assert "Friends Cup: started" in admin.inner_text(".messagelist")
    assert Entry.objects.filter(tournament=tournament, bot_number__isnull=False).count() == 6
    round_1 = tables_of(tournament, 1)
    assert len(round_1) == 4

    # The friends resign their tables; the bots play the rest of the bracket out.
    def resign_all() -> None:
        for friend in friends:
            table = next(
                table for table in round_1 if Entry.objects.filter(pk__in=table.entries, user=friend)
            )
            match_resign(match_id=table.match_id, user=friend)

    off_the_event_loop(resign_all)
    wait_for(
        lambda: Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED,
        timeout=240,
        what="the tournament to finish",
    )
    assert not Match.objects.filter(status=Match.Status.RUNNING).exists()
    champion = Entry.objects.get(pk=formats.standings(format_state(tournament))[0].entrant)

    watcher = context.new_page()
    watcher.goto(f"{live_site}/tournaments/{tournament.pk}/")
    status = watcher.inner_text("#status-line")
    assert "Finished" in status and champion.display_name in status
    assert watcher.locator("#bracket").count() == 1
    assert serious_findings(watcher) == []
    context.close()
