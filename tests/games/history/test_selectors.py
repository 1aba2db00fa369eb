"""games/history/selectors.py: whose matches a list holds, how each went, the filters,
and keyset pages that neither skip nor repeat a row."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from accounts.models import User
from games.history.selectors import HistoryFilters, history_page
from games.models import Match
from games.services import SeatRequest, match_create
from tests.games.history.helpers import bot, finished

pytestmark = pytest.mark.django_db

NOON = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def ids(player: User, viewer: User | AnonymousUser | None = None, **filters: object) -> list[int]:
    page = history_page(player=player, viewer=viewer or player, filters=HistoryFilters(**filters), limit=1000)  # type: ignore[arg-type]
    return [row.match.pk for row in page.rows]


def test_the_history_holds_my_finished_matches_newest_first(
    ann: User, bob: User, make_person: Callable[..., User]
) -> None:
    carl = make_person("carl")
    older = finished([ann, bob], finished_at=NOON - timedelta(days=2))
    newer = finished([bob, ann], finished_at=NOON)
    middle = finished([carl, ann, bob], finished_at=NOON - timedelta(days=1))
    finished([bob, carl])  # not mine
    running = match_create(
        creator=ann, game_slug="go-fox", options={}, seats=[SeatRequest("me"), SeatRequest("open")]
    )
    assert running.status == Match.Status.OPEN
    assert ids(ann) == [newer.pk, middle.pk, older.pk]


def test_each_row_says_how_my_seat_did_in_each_kind_of_game(
    ann: User, bob: User, make_person: Callable[..., User]
) -> None:
    carl = make_person("carl")
    won = finished([ann, bob], ranks=[1, 2])
    lost = finished([ann, bob, carl], ranks=[3, 1, 2])
    shared = finished([ann, bob, carl], ranks=[1, 1, 3])
    # Cooperative: everyone wins or loses together, whatever the ranks say.
    team_won = finished(
        [ann, bob], game="its-a-bomb", ranks=[1, 1], result={"won": True, "scores": [3, 3], "ranks": [1, 1]}
    )
    team_lost = finished(
        [ann, bob], game="its-a-bomb", ranks=[1, 1], result={"won": False, "scores": [0, 0], "ranks": [1, 1]}
    )
    # Solitaire: the result's "won" decides, not the lone rank 1.
    alone_lost = finished(
        [ann], game="booby-trap", ranks=[1], result={"won": False, "scores": [4], "ranks": [1]}
    )
    # Out of the game: a loss even when everyone else resigned too and the ranks tie.
    gave_up = finished([ann, bob], ranks=[1, 1], resigned={0: True})
    rows = {row.match.pk: row for row in history_page(player=ann, viewer=ann, limit=100).rows}
    assert {pk: rows[pk].outcome for pk in rows} == {
        won.pk: "won",
        lost.pk: "lost",
        shared.pk: "shared",
        team_won.pk: "won",
        team_lost.pk: "lost",
        alone_lost.pk: "lost",
        gave_up.pk: "lost",
    }
    assert rows[lost.pk].rank_text == "3rd of 3" and rows[shared.pk].rank_text == "1st of 3"
    assert rows[team_won.pk].rank_text == ""  # nobody ranks apart in a cooperative game
    assert [seat.public_name for seat in rows[lost.pk].others] == ["Bob", "carl"]


@pytest.mark.parametrize("outcome", ["won", "lost", "shared"])
def test_the_result_filter_keeps_exactly_the_rows_with_that_outcome(
    outcome: str, ann: User, bob: User, make_person: Callable[..., User]
) -> None:
    carl = make_person("carl")
    finished([ann, bob], ranks=[1, 2])
    finished([ann, bob, carl], ranks=[2, 1, 3])
    finished([ann, bob, carl], ranks=[1, 1, 3])
    finished(
        [ann, bob], game="its-a-bomb", ranks=[1, 1], result={"won": True, "scores": [1, 1], "ranks": [1, 1]}
    )
    finished(
        [ann, bob], game="its-a-bomb", ranks=[1, 1], result={"won": False, "scores": [0, 0], "ranks": [1, 1]}
    )
    everything = history_page(player=ann, viewer=ann, limit=100).rows
    filtered = history_page(player=ann, viewer=ann, filters=HistoryFilters(outcome=outcome), limit=100).rows  # type: ignore[arg-type]
    assert [row.match.pk for row in filtered] == [
        row.match.pk for row in everything if row.outcome == outcome
    ]
    assert filtered


def test_the_game_filter(ann: User, bob: User) -> None:
    fox = finished([ann, bob], game="go-fox")
    finished([ann, bob], game="ka-blam")
    assert ids(ann, game="go-fox") == [fox.pk]


def test_the_opponent_filter_finds_part_of_a_name_or_username_of_someone_else_at_the_table(
    ann: User, bob: User, make_person: Callable[..., User]
) -> None:
    robert = make_person("robert_k", display_name="Bobby Tables")
    carl = make_person("carl")
    with_bob = finished([ann, bob], finished_at=NOON)
    with_robert = finished([robert, ann], finished_at=NOON - timedelta(hours=1))
    with_carl = finished([ann, carl], finished_at=NOON - timedelta(hours=2))
    assert ids(ann, opponent="bob") == [with_bob.pk, with_robert.pk]  # display names, any case
    assert ids(ann, opponent="ROBERT_") == [with_robert.pk]  # usernames; "_" is a letter, not a wildcard
    assert ids(ann, opponent="%") == []
    assert ids(ann, opponent="ann") == []  # not myself
    assert ids(ann, opponent="car") == [with_carl.pk]


def test_the_opponent_filter_reads_the_name_the_seat_had_at_the_table(ann: User, bob: User) -> None:
    match = finished([ann, bob])
    bob.display_name = "Robert"
    bob.save()
    assert ids(ann, opponent="Bob") == [match.pk]  # the seat's name, fixed when the match started
    assert ids(ann, opponent="Robert") == [match.pk]  # and the account's name now


def test_the_bots_filter(ann: User, bob: User) -> None:
    people = finished([ann, bob])
    with_a_bot = finished([ann, bot("random")])
    assert ids(ann, bots="with") == [with_a_bot.pk]
    assert ids(ann, bots="without") == [people.pk]


def test_the_date_range_is_whole_days_from_the_first_moment_of_one_to_the_first_of_the_next(
    ann: User, bob: User
) -> None:
    day = datetime(2026, 11, 20, tzinfo=UTC)
    before = finished([ann, bob], finished_at=day - timedelta(microseconds=1))
    first = finished([ann, bob], finished_at=day)
    last = finished([ann, bob], finished_at=day + timedelta(days=1) - timedelta(microseconds=1))
    after = finished([ann, bob], finished_at=day + timedelta(days=1))
    assert ids(ann, finished_from=day, finished_before=day + timedelta(days=1)) == [last.pk, first.pk]
    assert ids(ann, finished_from=day) == [after.pk, last.pk, first.pk]
    assert ids(ann, finished_before=day) == [before.pk]


def test_someone_elses_private_matches_show_only_to_the_people_who_played_them(
    ann: User, bob: User, make_person: Callable[..., User]
) -> None:
    carl = make_person("carl")
    public = finished([ann, bob], finished_at=NOON)
    private = finished([ann, bob], visibility=Match.Visibility.PRIVATE, finished_at=NOON - timedelta(hours=1))
    assert ids(ann, ann) == [public.pk, private.pk]  # my own list
    assert ids(ann, bob) == [public.pk, private.pk]  # bob played it
    assert ids(ann, carl) == [public.pk]
    assert ids(ann, AnonymousUser()) == [public.pk]


def test_pages_follow_each_other_without_a_gap_or_a_repeat_even_among_equal_times(
    ann: User, bob: User
) -> None:
    # Four matches share one finishing moment: the seat id breaks the tie.
    matches = [finished([ann, bob], finished_at=NOON - timedelta(minutes=n // 4)) for n in range(11)]
    seen: list[int] = []
    after = None
    while True:
        page = history_page(player=ann, viewer=ann, after=after, limit=3)
        assert len(page.rows) <= 3
        seen += [row.match.pk for row in page.rows]
        if page.next_cursor is None:
            break
        after = page.next_cursor
    assert sorted(seen) == sorted(match.pk for match in matches) and len(seen) == len(set(seen))
    assert seen == ids(ann)


def test_a_match_finished_after_the_first_page_shifts_no_later_page(ann: User, bob: User) -> None:
    older = [finished([ann, bob], finished_at=NOON - timedelta(minutes=n)) for n in range(4)]
    first = history_page(player=ann, viewer=ann, limit=2)
    finished([ann, bob], finished_at=timezone.now())
    second = history_page(player=ann, viewer=ann, after=first.next_cursor, limit=2)
    assert [row.match.pk for row in second.rows] == [older[2].pk, older[3].pk]
    assert second.next_cursor is None


def test_a_bot_seated_twice_has_a_row_per_seat_and_pages_keep_both(ann: User) -> None:
    basic = bot("basic")
    match = finished([basic, ann, basic], ranks=[1, 2, 3])
    first = history_page(player=basic, viewer=ann, limit=1)
    second = history_page(player=basic, viewer=ann, after=first.next_cursor, limit=1)
    rows = first.rows + second.rows
    assert [(row.match.pk, row.seat.index, row.outcome) for row in rows] == [
        (match.pk, 2, "lost"),
        (match.pk, 0, "won"),
    ]
    assert second.next_cursor is None
