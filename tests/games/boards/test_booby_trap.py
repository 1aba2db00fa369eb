"""Booby-Trap's board on real engine states: the tray's clickable pieces match the buttons,
readings show to their toucher only, the readouts follow the log, the prompt follows the phase.
"""

from __future__ import annotations

import html
import json
import random
import re
from typing import Any

from games.boards import booby_trap as presenter
from games.boards import build_board
from games.engine import Game, all_games
from tests.games.boards.helpers import (
    board_html,
    board_of,
    buttons,
    names_for,
    random_states,
    without_action_ids,
)

GAME: Game[Any] = next(game for game in all_games() if game.slug == "booby-trap")

_CLICK_TARGET = re.compile(r'<g class="(bt-piece[^"]*)" data-click-target="([^"]*)"')
_PIECE_GROUP = re.compile(r'<g class="(bt-piece[^"]*)"')
_BUTTON_TEXT = re.compile(r"<button[^>]*>(.*?)</button>")


def _click_targets(page: str) -> list[dict[str, Any]]:
    return [json.loads(html.unescape(raw)) for _classes, raw in _CLICK_TARGET.findall(page)]


def _play(state: Any, *moves: tuple[int, dict[str, Any]]) -> Any:
    for seat, action in moves:
        state = GAME.apply(state, seat, action)
    return state


def _ids(state: Any) -> list[str]:
    return [piece["id"] for piece in GAME.view(state, None)["pieces"]]


def _prompt(page: str) -> str:
    match = re.search(r'<p [^>]*class="bt-prompt[^"]*"[^>]*>(.*?)</p>', page)
    assert match is not None
    return html.unescape(match.group(1))


def test_labels_name_the_piece_by_size_colour_and_number() -> None:
    state = GAME.new(2, 5, None)
    view = GAME.view(state, 0)
    first, last = view["pieces"][0], view["pieces"][-1]
    assert (first["size"], last["size"]) == ("large", "small")  # placed largest first
    assert presenter.label(view, {"type": "touch", "piece": first["id"]}) == "Touch the large blue piece (#1)"
    assert presenter.label(view, {"type": "touch", "piece": last["id"]}) == "Touch the small red piece (#32)"
    assert (
        presenter.label(view, {"type": "take", "piece": last["id"]})
        == "Take the small red piece (#32), worth 5 points"
    )
    assert presenter.label(view, {"type": "pass"}) == "Pass: leave it in the tray"


def test_every_touchable_piece_in_the_tray_clicks_its_own_button() -> None:
    state = GAME.new(3, 8, None)
    page = board_html(GAME, state, 0)
    targets = _click_targets(page)
    assert len(targets) == 32
    assert sorted(map(json.dumps, targets)) == sorted(map(json.dumps, buttons(page)))
    # The page's script matches the two attributes as text: they must be the same strings.
    raw_targets = sorted(raw for _classes, raw in _CLICK_TARGET.findall(page))
    assert raw_targets == sorted(re.findall(r'<button[^>]*\bdata-action="([^"]*)"', page))
    assert "data-action" not in page.split("</svg>")[0]  # only buttons carry data-action
    # The other seats and spectators see the same tray with nothing to click.
    for seat in (1, None):
        other = board_html(GAME, state, seat)
        assert _click_targets(other) == [] and buttons(other) == []
        assert len(_PIECE_GROUP.findall(other)) == 32


def test_pieces_are_drawn_where_the_view_puts_them() -> None:
    state = GAME.new(2, 11, None)
    page = board_html(GAME, state, None)
    for piece in GAME.view(state, None)["pieces"]:
        cx, cy, r = round(piece["x"] * 100), round(piece["y"] * 100), round(piece["radius"] * 100)
        assert f'<circle class="bt-disc" cx="{cx}" cy="{cy}" r="{r}"' in page


def test_after_a_touch_the_toucher_sees_the_reading_and_may_take_the_piece_by_clicking_it() -> None:
    state = GAME.new(2, 5, None)
    piece = _ids(state)[25]
    state = _play(state, (0, {"type": "touch", "piece": piece}))
    reading = GAME.view(state, 0)["touched"]["reading"]
    words = f"{reading['feel']} ({reading['gauge']}/10)"

    mine = board_html(GAME, state, 0)
    assert _prompt(mine) == f"The small red piece (#26) feels {words}. Take it, or pass?"
    assert f"You touched the small red piece (#26): it feels {words}." in mine
    assert _click_targets(mine) == [{"type": "take", "piece": piece}]
    assert [json.dumps(a, sort_keys=True) for a in buttons(mine)] == [
        json.dumps({"type": "take", "piece": piece}, sort_keys=True),
        json.dumps({"type": "pass"}, sort_keys=True),
    ]

    # Seat 1 and spectators know which piece, not how it felt.
    for seat in (1, None):
        theirs = board_html(GAME, state, seat)
        assert (
            _prompt(theirs) == "Player1 touched the small red piece (#26) and is deciding whether to take it."
        )
        assert "only they know how tight it feels" in theirs
        assert "/10)" not in theirs and "bt-badge" not in theirs


def test_touches_passed_over_are_listed_with_the_viewers_own_readings_only() -> None:
    state = GAME.new(2, 5, None)
    ids = _ids(state)
    state = _play(
        state,
        (0, {"type": "touch", "piece": ids[11]}),
        (0, {"type": "pass"}),
        (1, {"type": "touch", "piece": ids[20]}),
        (1, {"type": "pass"}),
    )
    own = GAME.view(state, 0)["pieces"][11]["reading"]
    mine = board_html(GAME, state, 0)
    assert f"You touched #12 (medium), felt it {own['feel']} ({own['gauge']}/10) and passed." in mine
    assert "Player2 touched #21 (small) and passed." in mine
    assert mine.count("bt-passed-over") == 2  # both pieces are marked in the tray
    assert "Touched and passed over since the tray settled" in mine  # and the legend says so
    assert mine.count('class="bt-badge"') == 1  # the viewer's one reading, on #12

    theirs = board_html(GAME, state, 1)
    assert "Player1 touched #12 (medium) and passed." in theirs
    assert f"{own['feel']} ({own['gauge']}/10)" not in theirs
    assert "Passes in a row: 2 of 4." in theirs


def test_the_passing_limit_forces_a_take() -> None:
    state = GAME.new(2, 5, None)
    ids = _ids(state)
    for turn in range(4):
        seat = turn % 2
        state = _play(state, (seat, {"type": "touch", "piece": ids[turn]}), (seat, {"type": "pass"}))
    before = board_html(GAME, state, 0)
    assert _prompt(before).startswith("Your turn: everyone has passed twice in a row, so you must take")
    assert "4 passes in a row: the piece touched now must be taken." in before

    state = _play(state, (0, {"type": "touch", "piece": ids[30]}))
    page = board_html(GAME, state, 0)
    assert "Everyone has passed twice in a row: you must take it." in _prompt(page)
    assert buttons(page) == [{"type": "take", "piece": ids[30]}]
    assert (
        _prompt(board_html(GAME, state, 1)) == "Player1 touched the small red piece (#31) and must take it."
    )


def test_the_last_take_is_reported_and_the_piece_moves_to_its_keeper_or_the_discard_pile() -> None:
    seen = {False: False, True: False}
    for seed in range(1, 40):
        state = GAME.new(2, seed, None)
        piece = _ids(state)[0]  # a large piece: a fair chance of either outcome
        state = _play(state, (0, {"type": "touch", "piece": piece}), (0, {"type": "take", "piece": piece}))
        take = GAME.view(state, None)["log"][-1]
        page = board_html(GAME, state, 1)
        chip = '<span class="bt-chip bt-large" title="The large blue piece (#1)'
        if take["tripped"]:
            markings = take["markings"]
            assert f"Player1 tripped the bar ({markings} marking{'s' if markings > 1 else ''})" in page
            assert "Player1 loses 20 points." in page
            discard = page.split("<dt>Discard pile</dt>")[1].split("</dd>")[0]
            assert chip in discard
            assert 'class="bt-ghost"' in page  # the bar's place before the take
        else:
            assert "Player1 took the large blue piece (#1) safely" in page
            player1 = page.split('<li class="bt-player')[1]
            assert chip in player1 and "Kept 20 = <strong>20</strong> points" in player1
        seen[take["tripped"]] = True
        if all(seen.values()):
            return
    raise AssertionError(f"expected both a safe take and a trip within the seeds: {seen}")


def test_size_order_offers_only_the_smallest_size() -> None:
    state = GAME.new(3, 4, {"variant": "size-order"})
    page = board_html(GAME, state, 0)
    sizes = {piece["id"]: piece["size"] for piece in GAME.view(state, 0)["pieces"]}
    assert {sizes[target["piece"]] for target in _click_targets(page)} == {"small"}
    assert len(_click_targets(page)) == 12
    assert page.count("bt-out-of-reach") == 20
    assert _prompt(page).endswith("Only small pieces may be touched now.")


def test_no_pass_takes_in_one_click_without_readings() -> None:
    state = GAME.new(2, 6, {"variant": "no-pass"})
    page = board_html(GAME, state, 0)
    assert {target["type"] for target in _click_targets(page)} == {"take"}
    assert len(buttons(page)) == 32
    assert "Take a piece" in page
    assert (
        _prompt(page) == "You must take a piece (no passing in this game): click the one that looks loosest."
    )
    assert _prompt(board_html(GAME, state, 1)) == "Player1 must take a piece (no passing in this game)."


def test_the_final_board_shows_the_result() -> None:
    *_, last = random_states(GAME, 3, seed=21)
    result = GAME.result(last)
    assert result is not None
    page = board_html(GAME, last, 0)
    assert buttons(page) == [] and _click_targets(page) == []
    best = max(result["scores"])
    winners = [names_for(3)[seat] for seat, rank in enumerate(result["ranks"]) if rank == 1]
    verb = "wins" if len(winners) == 1 else "share the win"
    assert _prompt(page) == f"The game is over. {' and '.join(winners)} {verb} with {best} points."
    for seat, score in enumerate(result["scores"]):
        assert f"= <strong>{score}</strong> points" in page, seat


def test_solitaire_end_says_won_or_lost() -> None:
    *_, last = random_states(GAME, 1, seed=4)
    result = GAME.result(last)
    assert result is not None
    board = board_of(GAME, last, 0)
    prompt = board.extra["prompt"]
    taken = result["scores"][0]
    if result["won"]:
        assert prompt.startswith("The game is over. Solitaire won:")
    else:
        assert (
            prompt
            == f"The game is over. Solitaire lost: the bar tripped a fourth time ({taken} pieces taken safely)."
        )
    assert "allowed)" in board_html(GAME, last, 0)


def test_a_board_is_built_from_the_view_alone() -> None:
    """The presenter never needs the state: a board from the view plus its legal actions."""
    state = GAME.new(2, 3, None)
    board = build_board(GAME, state, 0, names_for(2), 0)
    assert board.extra["drawing"]["bar"] == round(board.view["tray"]["bar_y"] * 100)
    assert [piece["number"] for piece in board.extra["pieces"]] == list(range(1, 33))
    # Touch buttons are compact ("#21"); their full label is in title and aria-label.
    texts = _BUTTON_TEXT.findall(board_html(GAME, state, 0))
    assert texts == [f"#{number}" for number in [*range(21, 33), *range(9, 21), *range(1, 9)]]


def test_readings_and_histories_survive_resampling_unchanged() -> None:
    """The generic no-leak test on the states that carry the most private facts."""
    state = GAME.new(2, 5, None)
    ids = _ids(state)
    passed = _play(
        state,
        (0, {"type": "touch", "piece": ids[11]}),
        (0, {"type": "pass"}),
        (1, {"type": "touch", "piece": ids[20]}),
        (1, {"type": "pass"}),
    )
    deciding = _play(passed, (0, {"type": "touch", "piece": ids[3]}))
    rng = random.Random(1)
    for case in (passed, deciding):
        for seat in (0, 1, None):
            resampled = GAME.sample(GAME.view(case, seat), seat, rng)
            assert without_action_ids(board_html(GAME, case, seat)) == without_action_ids(
                board_html(GAME, resampled, seat)
            )
