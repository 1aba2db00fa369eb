"""The tournaments' reads (games/tournaments/selectors.py)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from accounts.models import User
from games.tournaments import services
from games.tournaments.selectors import tournament_listing
from tests.games.tournaments.helpers import enter, make_tournament

pytestmark = pytest.mark.django_db


def test_the_listing_counts_who_plays_a_withdrawal_before_the_start_gives_the_place_back(
    make_person: Callable[..., User],
) -> None:
    organiser = make_person("organiser", is_staff=True)
    people = [make_person(f"p{number}") for number in range(4)]
    upcoming = make_tournament(organiser, name="Upcoming")
    running = make_tournament(organiser, name="Running")
    enter(upcoming, people)
    enter(running, people)
    services.tournament_withdraw(tournament_id=upcoming.pk, user=people[0])
    services.tournament_start(tournament_id=running.pk)
    services.tournament_withdraw(tournament_id=running.pk, user=people[0])
    listing = tournament_listing()
    assert [(shown.name, shown.entrants) for shown in listing.upcoming] == [("Upcoming", 3)]  # type: ignore[attr-defined]
    assert [(shown.name, shown.entrants) for shown in listing.running] == [("Running", 4)]  # type: ignore[attr-defined]
