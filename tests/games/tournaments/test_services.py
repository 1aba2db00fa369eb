"""The tournaments' writes (games/tournaments/services.py): registration, the start
(seeding, bot fill, round 1 through the core), advancing table by table to a winner,
absent players, the sweep, and exactly-once rounds."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
import time_machine
from django.db import IntegrityError, transaction
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games.errors import ErrorCode, http_status
from games.models import Match, ResignReason, Seat
from games.ratings.models import Rating
from games.services import BOT_USERNAMES
from games.tasks import sweep_clocks
from games.tournaments import formats, services
from games.tournaments.models import Entry, Round, Table, Tournament
from games.tournaments.services import TournamentError
from tests.games.tournaments.helpers import enter, finish_table, make_tournament, tables_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(make_person: Callable[..., User]) -> list[User]:
    return [make_person(f"player{number}") for number in range(1, 9)]


def test_a_person_registers_once_and_may_come_back_after_withdrawing(organiser: User, ann: User) -> None:
    tournament = make_tournament(organiser)
    entry = services.tournament_register(tournament_id=tournament.pk, user=ann)
    with pytest.raises(TournamentError, match="registered already"):
        services.tournament_register(tournament_id=tournament.pk, user=ann)
    services.tournament_withdraw(tournament_id=tournament.pk, user=ann)
    assert Entry.objects.get(pk=entry.pk).withdrawn_at is not None
    again = services.tournament_register(tournament_id=tournament.pk, user=ann)
    assert again.pk == entry.pk and again.withdrawn_at is None
    assert Entry.objects.filter(tournament=tournament).count() == 1


def test_a_refusal_carries_a_code_from_the_one_list_with_its_http_status(organiser: User, ann: User) -> None:
    tournament = make_tournament(organiser)
    services.tournament_register(tournament_id=tournament.pk, user=ann)
    with pytest.raises(TournamentError) as twice:
        services.tournament_register(tournament_id=tournament.pk, user=ann)
    assert (twice.value.code, http_status(twice.value.code)) == (ErrorCode.ALREADY_REGISTERED, 409)
    with pytest.raises(TournamentError) as missing:
        services.tournament_register(tournament_id=10**9, user=ann)
    assert (missing.value.code, http_status(missing.value.code)) == (ErrorCode.NO_SUCH_TOURNAMENT, 404)
    assert str(missing.value) == "There is no such tournament."


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"status": Tournament.Status.DRAFT}, "not open"),
        ({"registration_opens_at": timezone.now() + timedelta(minutes=5)}, "not open"),
        ({"registration_closes_at": timezone.now() - timedelta(minutes=1)}, "not open"),
        ({"max_entrants": 2}, "full"),
    ],
    ids=["draft", "not-yet", "closed", "full"],
)
def test_registration_refused_changes_nothing(
    organiser: User, people: list[User], fields: dict[str, object], reason: str
) -> None:
    tournament = make_tournament(organiser, **fields)
    if reason == "full":
        enter(tournament, people[:2])
    before = Entry.objects.count()
    with pytest.raises(TournamentError, match=reason):
        services.tournament_register(tournament_id=tournament.pk, user=people[2])
    assert Entry.objects.count() == before


def test_bots_and_strangers_to_the_site_cannot_register(organiser: User) -> None:
    tournament = make_tournament(organiser)
    bot = User.objects.get(username=BOT_USERNAMES["basic"])
    with pytest.raises(TournamentError, match="Sign in"):
        services.tournament_register(tournament_id=tournament.pk, user=bot)
    with pytest.raises(TournamentError, match="no such tournament"):
        services.tournament_register(tournament_id=10**9, user=organiser)
    assert not Entry.objects.exists()


def test_the_start_seeds_by_rating_and_seats_round_one_through_the_core(
    organiser: User, people: list[User]
) -> None:
    tournament = make_tournament(
        organiser, seeding=Tournament.Seeding.RATING, rated=False, vacation_allowed=False
    )
    enter(tournament, people[:4])
    # player3 is the best rated, player1 next; player2 and player4 have no rating.
    for person, conservative in ((people[2], 20.0), (people[0], 10.0)):
        Rating.objects.create(
            user=person,
            game="go-fox",
            mu=conservative + 3,
            sigma=1,
            conservative=conservative,
            rated_matches=12,
        )
    services.tournament_start(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING and tournament.started_at is not None
    seeds = [entry.user.username for entry in tournament.entries.order_by("seed")]
    assert seeds == ["player3", "player1", "player2", "player4"]
    tables = tables_of(tournament, 1)
    assert len(tables) == 2
    for table in tables:
        match = table.match
        assert match.status == Match.Status.RUNNING and match.visibility == Match.Visibility.PUBLIC
        assert match.turn_limit == tournament.turn_limit and match.rated is False
        assert match.vacation_allowed is False and match.timeouts_to_forfeit == tournament.timeouts_to_forfeit
        seated = [seat.user_id for seat in match.seats.order_by("index")]
        assert seated == [Entry.objects.get(pk=entry_id).user_id for entry_id in table.entries]
        assert all(seat.joined_at is not None for seat in match.seats.all())
    # The best seeds meet last: 1 plays 4, 2 plays 3.
    pairs = {frozenset(Entry.objects.get(pk=e).seed for e in table.entries) for table in tables}
    assert pairs == {frozenset({1, 4}), frozenset({2, 3})}


def test_single_elimination_runs_table_by_table_to_a_winner(organiser: User, people: list[User]) -> None:
    tournament = make_tournament(organiser, seeding=Tournament.Seeding.RATING)
    enter(tournament, people[:4])
    services.tournament_start(tournament_id=tournament.pk)
    first, second = tables_of(tournament, 1)
    finish_table(first)  # the first seat wins
    assert services.match_finished(match_id=first.match_id) == services.AdvanceOutcome.WAITING
    assert not Round.objects.filter(tournament=tournament, number=2).exists()
    finish_table(second, best_first=list(reversed(second.entries)))
    assert services.match_finished(match_id=second.match_id) == services.AdvanceOutcome.SEATED
    (final,) = tables_of(tournament, 2)
    assert set(final.entries) == {first.entries[0], second.entries[1]}
    finish_table(final, best_first=[second.entries[1], first.entries[0]])
    assert services.match_finished(match_id=final.match_id) == services.AdvanceOutcome.FINISHED
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED and tournament.finished_at is not None
    standings = formats.standings(_state(tournament))
    assert standings[0].entrant == second.entries[1] and standings[0].place == 1
    # Told again (the announcement is at-least-once): nothing more happens.
    assert services.match_finished(match_id=final.match_id) == services.AdvanceOutcome.NOT_RUNNING
    assert Round.objects.filter(tournament=tournament).count() == 2


def test_a_round_is_built_once_even_when_told_many_times(organiser: User, people: list[User]) -> None:
    tournament = make_tournament(organiser, format=Tournament.Format.SWISS, swiss_rounds=3)
    enter(tournament, people[:6])
    services.tournament_start(tournament_id=tournament.pk)
    for table in tables_of(tournament, 1):
        finish_table(table)
    for table in tables_of(tournament, 1):
        services.match_finished(match_id=table.match_id)
        services.tournament_advance(tournament_id=tournament.pk)
    assert Round.objects.filter(tournament=tournament).count() == 2
    assert Table.objects.filter(round__tournament=tournament, round__number=2).count() == 3
    # And the database refuses a second round 2 outright.
    with pytest.raises(IntegrityError), transaction.atomic():
        Round.objects.create(tournament=tournament, number=2)


def test_a_player_who_forfeits_on_time_is_out_of_the_rest(organiser: User, people: list[User]) -> None:
    tournament = make_tournament(
        organiser, format=Tournament.Format.SWISS, swiss_rounds=3, timeouts_to_forfeit=1, turn_limit=300
    )
    enter(tournament, people[:4])
    services.tournament_start(tournament_id=tournament.pk)
    tables = tables_of(tournament, 1)
    finish_table(tables[1])
    # Nobody moves at the first table: the player on turn runs out of time and forfeits.
    absent_seat = Seat.objects.get(match_id=tables[0].match_id, deadline_at__isnull=False)
    with time_machine.travel(timezone.now() + timedelta(minutes=6), tick=False):
        sweep_clocks()
    absent_seat.refresh_from_db()
    assert absent_seat.resigned_reason == ResignReason.TIMED_OUT
    services.tournament_advance(tournament_id=tournament.pk)
    absent = Entry.objects.get(pk=tables[0].entries[absent_seat.index])
    assert absent.out == Entry.Out.FORFEITED and absent.out_in_round == 1
    seated_in_round_2 = {entry for table in tables_of(tournament, 2) for entry in table.entries}
    assert absent.pk not in seated_in_round_2
    assert len(seated_in_round_2) == 2  # three left: two play, one has the bye
    assert len(Round.objects.get(tournament=tournament, number=2).byes) == 1


def test_withdrawing_during_the_tournament_resigns_the_table_and_puts_the_player_out(
    organiser: User, people: list[User]
) -> None:
    tournament = make_tournament(organiser, format=Tournament.Format.SWISS, swiss_rounds=2)
    enter(tournament, people[:4])
    services.tournament_start(tournament_id=tournament.pk)
    table = tables_of(tournament, 1)[0]
    leaver = Entry.objects.get(pk=table.entries[0])
    services.tournament_withdraw(tournament_id=tournament.pk, user=leaver.user)
    leaver.refresh_from_db()
    assert leaver.out == Entry.Out.WITHDREW and leaver.out_in_round == 1
    assert Match.objects.get(pk=table.match_id).status == Match.Status.FINISHED  # two seats: the other wins
    with pytest.raises(TournamentError, match="not playing"):
        services.tournament_withdraw(tournament_id=tournament.pk, user=leaver.user)


def test_too_few_entrants_at_the_start_cancels_with_the_reason(organiser: User, ann: User) -> None:
    tournament = make_tournament(organiser)
    enter(tournament, [ann])
    services.tournament_start(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
    assert "Not enough entrants" in tournament.cancelled_because
    assert not Match.objects.exists()


def test_an_entry_shows_the_name_its_tables_show(organiser: User, make_person: Callable[..., User]) -> None:
    ann = make_person("ann_lee", display_name="Ann Lee")
    plain = make_person("x" * 150)  # no display name, and a username longer than an entry keeps
    tournament = make_tournament(organiser)
    assert services.tournament_register(tournament_id=tournament.pk, user=ann).display_name == "Ann Lee"
    assert services.tournament_register(tournament_id=tournament.pk, user=plain).display_name == "x" * 60


def test_bots_fill_the_empty_places_up_to_the_field_size(organiser: User, people: list[User]) -> None:
    tournament = make_tournament(organiser, table_size=4, advance=2, bot_fill_level="random", max_entrants=8)
    enter(tournament, people[:5])
    services.tournament_start(tournament_id=tournament.pk)
    entries = list(tournament.entries.order_by("seed"))
    assert len(entries) == 8  # two tables of four, then a final of four
    bots = [entry for entry in entries if entry.bot_number is not None]
    assert len(bots) == 3 and all(entry.user.is_bot for entry in bots)
    # Each place is named as its tables name the bot, numbered: "Random Bot 1", ...
    assert sorted(entry.display_name for entry in bots) == [
        f"{bots[0].user.public_name} {n}" for n in (1, 2, 3)
    ]
    assert not bots[0].user.public_name.startswith("bot-")
    assert [entry.seed for entry in entries[-3:]] == [6, 7, 8]  # bot places seeded last
    assert Round.objects.get(tournament=tournament, number=1).byes == []
    assert all(len(table.entries) == 4 for table in tables_of(tournament, 1))


def test_two_friends_and_six_bots_make_an_eight_place_bracket(organiser: User, people: list[User]) -> None:
    """Issue 33: bot fill only completed the last table, so two friends in pairs got no
    bots. It fills every empty place up to the field size the organiser chose."""
    tournament = make_tournament(organiser, bot_fill_level="random", max_entrants=8)
    enter(tournament, people[:2])
    services.tournament_start(tournament_id=tournament.pk)
    assert tournament.entries.count() == 8
    assert tournament.entries.filter(bot_number__isnull=False).count() == 6
    round_1 = tables_of(tournament, 1)
    assert len(round_1) == 4 and Round.objects.get(tournament=tournament, number=1).byes == []


def test_a_field_size_that_is_not_full_is_played_with_byes(organiser: User, people: list[User]) -> None:
    """Bots fill up to the field size, whatever it is: 6 in pairs gives the top two seeds byes."""
    tournament = make_tournament(organiser, bot_fill_level="random", max_entrants=6)
    enter(tournament, people[:2])
    services.tournament_start(tournament_id=tournament.pk)
    assert tournament.entries.count() == 6
    assert len(tables_of(tournament, 1)) == 2
    assert len(Round.objects.get(tournament=tournament, number=1).byes) == 2


def test_the_sweep_starts_tournaments_whose_time_has_come(organiser: User, people: list[User]) -> None:
    due = make_tournament(organiser)
    later = make_tournament(organiser, starts_at=timezone.now() + timedelta(days=1))
    enter(due, people[:2])
    enter(later, people[2:4])
    assert services.tournaments_sweep()["started"] == 0
    with time_machine.travel(timezone.now() + timedelta(hours=1, minutes=1), tick=False):
        assert services.tournaments_sweep()["started"] == 1
    assert Tournament.objects.get(pk=due.pk).status == Tournament.Status.RUNNING
    assert Tournament.objects.get(pk=later.pk).status == Tournament.Status.REGISTRATION


def test_the_sweep_records_a_finished_table_whose_announcement_was_lost(
    organiser: User, people: list[User]
) -> None:
    tournament = make_tournament(organiser)
    enter(tournament, people[:2])
    services.tournament_start(tournament_id=tournament.pk)
    (final,) = tables_of(tournament, 1)
    finish_table(final)
    assert services.tournaments_sweep()["advanced"] == 1
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED


def test_cancel_stops_the_rounds_and_is_refused_when_over(organiser: User, people: list[User]) -> None:
    tournament = make_tournament(organiser)
    enter(tournament, people[:4])
    services.tournament_start(tournament_id=tournament.pk)
    services.tournament_cancel(tournament_id=tournament.pk, because="The venue flooded.")
    for table in tables_of(tournament, 1):
        finish_table(table)
        assert services.match_finished(match_id=table.match_id) == services.AdvanceOutcome.NOT_RUNNING
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert Tournament.objects.get(pk=tournament.pk).cancelled_because == "The venue flooded."
    with pytest.raises(TournamentError, match="already"):
        services.tournament_cancel(tournament_id=tournament.pk, because="again")


def test_a_draft_is_neither_cancelled_nor_started_short_so_it_stays_shown_to_nobody(
    organiser: User, client: Client
) -> None:
    """A cancelled tournament is listed with its reason: cancelling a draft, or starting it
    with too few entrants (nobody could register), would publish what was never opened."""
    draft = make_tournament(organiser, name="Secret Spring Invitational", status=Tournament.Status.DRAFT)
    with pytest.raises(TournamentError, match="draft, shown to nobody: delete it"):
        services.tournament_cancel(tournament_id=draft.pk, because="Changed my mind.")
    with pytest.raises(TournamentError, match=r"Not enough entrants.*stays a draft"):
        services.tournament_start(tournament_id=draft.pk)
    draft.refresh_from_db()
    assert draft.status == Tournament.Status.DRAFT and draft.finished_at is None
    assert client.get(f"/tournaments/{draft.pk}/").status_code == 404
    assert "Secret Spring" not in client.get("/tournaments/").content.decode()


def test_a_match_outside_tournaments_is_only_marked_delivered(two_player_match: Match) -> None:
    assert services.match_finished(match_id=two_player_match.pk) == "not a tournament table"


def _state(tournament: Tournament) -> formats.State:
    from games.tournaments.selectors import format_state

    return format_state(tournament)


def test_a_published_tournament_nobody_entered_is_cancelled_not_played_by_bots(organiser: User) -> None:
    """Its start (the sweep's, or "start now") says why on its page and seats nobody."""
    tournament = make_tournament(organiser, bot_fill_level="random")
    services.tournament_start(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
    assert "nobody has entered" in tournament.cancelled_because
    assert not tournament.entries.exists() and not Match.objects.exists()


def test_one_person_and_bots_fill_a_tournament(organiser: User, ann: User) -> None:
    """One person is enough when bots fill the rest: the places beside people."""
    tournament = make_tournament(organiser, bot_fill_level="random", max_entrants=4)
    enter(tournament, [ann])
    services.tournament_start(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert tournament.entries.count() == 4 and Match.objects.count() == 2
