"""What a notification tells (games/notify/selectors.py): the events since the player's
own last move, from their seat's view only, and the matches waiting for them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from games.engine.log import render_text
from games.models import Match
from games.notify import selectors
from games.selectors import seat_names
from games.services import SeatRequest, match_create, match_join
from tests.games.helpers import on_turn, seat, until_turn_passes
from tests.games.notify.helpers import until_turn_of

pytestmark = pytest.mark.django_db


def rendered_log(match: Match, index: int) -> list[str]:
    """The log as seat ``index``'s player reads it (themself as "you")."""
    match.refresh_from_db()
    names = seat_names(list(match.seats.select_related("user")))
    return [
        render_text(item["text"], names, index)
        for item in match.engine.view(match.decoded_state(), index)["log"]
    ]


def test_the_news_is_what_happened_since_the_players_last_move_as_their_seat_saw_it(clocked: Match) -> None:
    first = on_turn(clocked)
    until_turn_passes(clocked)
    seen = len(rendered_log(clocked, first))  # the log as it stood after the first player's move
    until_turn_passes(clocked)  # the opponent's turn: asks, gives, draws
    assert on_turn(clocked) == first

    news = selectors.turn_news(seat(clocked, first), timezone.now())

    mine = rendered_log(clocked, first)
    assert news.happened == mine[seen:][-selectors.LOG_LINES :] and news.happened
    assert news.earlier == max(0, len(mine) - seen - selectors.LOG_LINES)
    assert news.opponents == [seat(clocked, 1 - first).public_name]
    assert news.time_left is not None and timedelta(minutes=59) < news.time_left <= timedelta(hours=1)
    # The opponent's own texts (the card they drew) appear only in their view, never here,
    # in whatever words they would have read to this player.
    clocked.refresh_from_db()
    names = seat_names(list(clocked.seats.select_related("user")))
    state = clocked.decoded_state()
    theirs, own = (
        [item["text"] for item in clocked.engine.view(state, index)["log"]] for index in (1 - first, first)
    )
    secrets = {
        render_text(text, names, first) for text, shown in zip(theirs, own, strict=True) if text != shown
    }
    assert secrets and not secrets & set(news.happened)
    assert not any("You drew" in line for line in news.happened)


def test_before_a_players_first_move_the_news_starts_at_the_deal(clocked: Match) -> None:
    second = until_turn_passes(clocked)
    news = selectors.turn_news(seat(clocked, second), timezone.now())
    mine = rendered_log(clocked, second)
    assert len(mine) <= selectors.LOG_LINES  # one turn in: the whole log fits
    assert news.happened == mine and news.earlier == 0
    assert "dealt" in news.happened[0] and "You got:" in news.happened[0]  # their own hand, theirs to see


def test_waiting_matches_are_sorted_by_time_left_with_no_limit_last(ann: User, bob: User) -> None:
    def duel(turn_limit: int | None) -> Match:
        match = match_create(
            creator=bob, game_slug="go-fox", options={}, turn_limit=turn_limit,
            seats=[SeatRequest("me"), SeatRequest("invite", username="ann")],
        )  # fmt: skip
        return match

    free, three_days, one_day = duel(None), duel(3 * 86400), duel(86400)
    invitation = duel(None)
    for match in (free, three_days, one_day):
        match_join(match_id=match.pk, user=ann)
        until_turn_of(match, ann)
    waiting = selectors.waiting_for(ann, timezone.now(), turns=True, invitations=True)
    assert [(item.match.pk, item.is_invitation) for item in waiting] == [
        (one_day.pk, False),
        (three_days.pk, False),
        (free.pk, False),
        (invitation.pk, True),
    ]
    assert waiting[0].others == ["Bob"] and waiting[0].time_left_words.startswith("23 hours")
    assert selectors.waiting_for(ann, timezone.now(), turns=False, invitations=False) == []
