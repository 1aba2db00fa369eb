"""It's a Bomb!'s board on real engine states: tiles as backs or contents, the
Information on the board, the Countdown, the Consultants and their buttons, the
prompt of each moment, and the end."""

from __future__ import annotations

import html
import json
import random
import re
from dataclasses import replace
from typing import Any

import pytest

from games.boards import its_a_bomb
from games.engine import get
from games.engine.its_a_bomb.scenarios import SCENARIO_SLUGS
from tests.games.boards.helpers import (
    board_html,
    board_of,
    buttons,
    random_states,
    without_action_ids,
)

GAME: Any = get("its-a-bomb")

# -- building states by legal play ------------------------------------------------------


def new(scenario: str = "training", players: int = 3, seed: int = 1) -> Any:
    return GAME.new(players, seed, {"scenario": scenario})


def act(state: Any, seat: int, action: dict[str, Any]) -> Any:
    assert action in GAME.legal_actions(state, seat), (action, GAME.legal_actions(state, seat))
    return GAME.apply(state, seat, action)


def crisis_unit_passes(state: Any) -> Any:
    """The Crisis Unit lets every moment pass until an employee (or nobody) decides."""
    while GAME.to_act(state) == [0]:
        state = act(state, 0, {"type": "pass"})
    return state


def truth(state: Any) -> dict[tuple[int, int, int], str]:
    """Every tile's kind, read from the Crisis Unit's view (it sees them all)."""
    return {
        (grid["grid"], tile["row"], tile["column"]): tile["kind"]
        for grid in GAME.view(state, 0)["grids"]
        for tile in grid["tiles"]
    }


def face_down_of(state: Any, kind: str) -> tuple[int, int, int]:
    view = GAME.view(state, 0)
    for grid in view["grids"]:
        for tile in grid["tiles"]:
            if tile["kind"] == kind and not tile["revealed"]:
                return grid["grid"], tile["row"], tile["column"]
    raise AssertionError(f"no face-down {kind}")


def cut(state: Any, where: tuple[int, int, int]) -> Any:
    grid, row, column = where
    seat = GAME.to_act(state)[0]
    return act(state, seat, {"type": "cut", "grid": grid, "row": row, "column": column})


def ask_row(state: Any, row: int) -> Any:
    seat = GAME.to_act(state)[0]
    return act(state, seat, {"type": "ask", "grid": 0, "line": "row", "index": row})


def tiles_with(page: str, css: str) -> int:
    """How many grid tiles carry ``css`` (the legend's mini tiles are not counted)."""
    return len(re.findall(rf'<span class="iab-tile {css}[ "]', page))


def text_of(page: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


# -- labels --------------------------------------------------------------------------


def test_labels_name_the_line_the_tile_and_the_consultant() -> None:
    state = new()
    view = GAME.view(state, 1)
    assert its_a_bomb.label(view, {"type": "ask", "grid": 0, "line": "row", "index": 1}) == (
        "Ask for Information on row 2"
    )
    assert its_a_bomb.label(view, {"type": "cut", "grid": 0, "row": 0, "column": 3}) == (
        "Cut the tile at row 1, column 4"
    )
    state = ask_row(state, 0)  # the Analyst's moment
    view = GAME.view(state, 0)
    assert its_a_bomb.label(view, {"type": "pass"}) == "Pass: give the Information as it is"
    assert its_a_bomb.label(view, {"type": "use", "consultant": "analyst"}).startswith("Use the Analyst")
    assert its_a_bomb.label(view, {"type": "standing_pass", "consultant": "analyst"}) == (
        "Never use the Analyst (stop asking)"
    )
    labels = {button.label for button in board_of(GAME, state, 0).actions}
    assert "Pass: give the Information as it is" in labels


def test_two_grids_are_named_in_labels_and_drawn_apart() -> None:
    state = new("twins")
    view = GAME.view(state, 1)
    assert its_a_bomb.label(view, {"type": "ask", "grid": 1, "line": "column", "index": 2}) == (
        "Ask for Information on column 3 of grid B"
    )
    assert its_a_bomb.label(view, {"type": "cut", "grid": 0, "row": 3, "column": 0}) == (
        "Cut the tile at grid A, row 4, column 1"
    )
    page = board_html(GAME, state, 1)
    assert "Grid A" in page and "Grid B" in page
    assert tiles_with(page, "iab-tile--down") == 32


def test_the_crisis_units_labels_say_what_it_sees_and_what_the_card_is() -> None:
    state = new("countdown", seed=3)  # Marker, Colourist, Chronometrist, Negotiator
    assert GAME.to_act(state) == [0]
    kinds = truth(state)
    marker = next(button for button in board_of(GAME, state, 0).actions if button.type == "use_on_tile")
    where = (marker.action["grid"], marker.action["row"], marker.action["column"])
    kind = its_a_bomb.KIND_WORDS[kinds[where]]
    assert marker.label == (
        f"Marker: mark the tile at row {where[1] + 1}, column {where[2] + 1} ({kind}) as not an Explosive"
    )


# -- tiles: backs for employees, contents for the Crisis Unit ------------------------


def test_employees_and_spectators_see_backs_and_the_crisis_unit_sees_every_tile() -> None:
    state = new()
    for seat in (1, 2, None):
        page = board_html(GAME, state, seat)
        assert tiles_with(page, "iab-tile--down") == 16
        assert tiles_with(page, "iab-tile--known") == 0
        assert "only you see it" not in page
        assert "The deck, top first" not in page
    page = board_html(GAME, state, 0)
    assert tiles_with(page, "iab-tile--down") == 0
    assert tiles_with(page, "iab-tile--known iab-k-explosive") == 2
    assert tiles_with(page, "iab-tile--known iab-k-grey") == 5
    row, column = face_down_of(state, "explosive")[1:]
    assert f'title="row {row + 1}, column {column + 1}: face down, an Explosive (only you see it)"' in page
    assert "The deck, top first (only you see it)" in page


def test_a_cut_tile_shows_its_contents_to_everyone() -> None:
    state = new()
    _, row, column = where = face_down_of(state, "red")
    state = cut(state, where)  # progress: the next employee's round
    for seat in (0, 1, 2, None):
        page = board_html(GAME, state, seat)
        assert tiles_with(page, "iab-tile--up iab-k-red") == 1
        assert f'title="row {row + 1}, column {column + 1}: a red cable, cut"' in page
        assert "red 1/1" not in page and "red ✓ done" in page


def test_the_employees_cut_buttons_lie_on_the_face_down_tiles() -> None:
    state = new()
    page = board_html(GAME, state, 1)
    cuts = [action for action in buttons(page) if action["type"] == "cut"]
    assert len(cuts) == 16
    # Each cut button sits inside the tile's own cell, after the tile drawing.
    cell = page[
        page.index('title="row 1, column 1: face down"') : page.index('title="row 1, column 2: face down"')
    ]
    assert buttons(cell) == [{"type": "cut", "grid": 0, "row": 0, "column": 0}]


# -- Information -----------------------------------------------------------------


def test_information_is_drawn_at_the_line_and_listed_with_its_tokens() -> None:
    state = ask_row(new(), 1)
    state = crisis_unit_passes(state)
    record = GAME.view(state, 1)["information"][0]
    page = board_html(GAME, state, 1)
    summary = ", ".join(its_a_bomb.TOKEN_WORDS[token] for token in record["tokens"]) or "no token"
    listed = page[page.index('class="iab-record-list"') :]
    assert "Round 1 · Row 2" in listed
    assert f'<span class="iab-record-summary">{summary}</span>' in listed
    # The tokens also lie at the end of row 2 (the row-information cell after the row's tiles).
    rows = page.split('<div class="iab-info iab-info--row">')
    assert f'aria-label="Round 1, row 2: {summary}"' in rows[2]
    assert page.count('class="iab-token iab-t-') >= 2 * len(record["tokens"])


def test_the_analysts_information_is_laid_out_in_tile_order() -> None:
    state = ask_row(new(), 0)
    state = act(state, 0, {"type": "use", "consultant": "analyst"})
    state = crisis_unit_passes(state)
    record = GAME.view(state, 2)["information"][0]
    assert record["analyst"]
    page = board_html(GAME, state, 2)
    assert "iab-tokens--ordered" in page
    assert "in tile order: " in text_of(page)
    assert page.count("iab-token iab-t-") >= 4  # one slot per tile of the row


# -- the Crisis Unit's moments and Consultants --------------------------------------


def test_the_prompt_follows_the_moment_for_each_seat() -> None:
    state = new()
    assert "Your round: ask for Information" in text_of(board_html(GAME, state, 1))
    assert "Player2 asks for Information or cuts a cable." in text_of(board_html(GAME, state, 2))
    state = ask_row(state, 2)
    page = board_html(GAME, state, 0)
    text = text_of(page)
    assert "Player2 asks for Information on row 3. You may call in the Analyst, or pass." in text
    assert "Pass: give the Information as it is" in text
    # The asked row is marked on the board for everyone.
    assert "iab-line--asked" in board_html(GAME, state, 1)
    waiting = text_of(board_html(GAME, state, 2))
    assert "Player1 may use the Analyst, or let the moment pass." in waiting


def test_consultant_buttons_sit_on_their_cards() -> None:
    state = ask_row(new(), 0)
    page = board_html(GAME, state, 0)
    # The Analyst, usable now, is drawn in the prompt with its buttons, next to "pass".
    prompt = page[page.index('<section id="board-prompt"') : page.index('<div class="iab-layout">')]
    assert [action["type"] for action in buttons(prompt)] == ["use", "standing_pass", "pass"]
    assert "Use the Analyst" in prompt and ">Never use</button>" in prompt
    # On the list, the Analyst points up there; the Chronometrist (not usable now) keeps its standing pass.
    listed = page[page.index('<section class="iab-consultants"') :]
    analyst = listed[
        listed.index("<strong>Analyst</strong>") : listed.index("<strong>Chronometrist</strong>")
    ]
    assert buttons(analyst) == [] and "Usable now: see the decision above." in analyst
    chronometrist = listed[listed.index("<strong>Chronometrist</strong>") :]
    assert buttons(chronometrist) == [{"type": "standing_pass", "consultant": "chronometrist"}]
    # Employees see the cards and their status, without buttons or hints.
    employee = board_html(GAME, state, 1)
    assert "<strong>Analyst</strong>" in employee and buttons(employee) == []
    assert "Usable now" not in employee


def test_marker_and_colourist_targets_are_buttons_under_the_tiles() -> None:
    state = new("countdown", seed=3)
    page = board_html(GAME, state, 0)
    on_tiles = [action for action in buttons(page) if action["type"] == "use_on_tile"]
    marks = [action for action in on_tiles if action["consultant"] == "marker"]
    shows = [action for action in on_tiles if action["consultant"] == "colourist"]
    kinds = truth(state)
    explosives = sum(1 for kind in kinds.values() if kind == "explosive")
    assert len(marks) == len(kinds) - explosives  # never an Explosive
    assert len(shows) == len(kinds)
    assert "iab-grid--targets" in page
    # Once marked, every seat sees the shield on that tile, and the cut button says so.
    mark = marks[0]
    state = act(state, 0, mark)
    state = crisis_unit_passes(state)
    where = f"row {mark['row'] + 1}, column {mark['column'] + 1}"
    page = board_html(GAME, state, 1)
    assert f'title="{where}: face down; marked: not an Explosive"' in page
    assert "iab-badge--safe" in page
    labels = {button.label for button in board_of(GAME, state, 1).actions}
    assert f"Cut the tile at {where} (marked: not an Explosive)" in labels


def test_the_colourists_tile_is_shown_to_employees() -> None:
    state = new("countdown", seed=3)
    target = face_down_of(state, "blue")
    state = act(
        state,
        0,
        {"type": "use_on_tile", "consultant": "colourist", "grid": 0, "row": target[1], "column": target[2]},
    )
    state = crisis_unit_passes(state)
    page = board_html(GAME, state, 1)
    assert tiles_with(page, "iab-tile--known iab-k-blue") == 1
    assert (
        f'title="row {target[1] + 1}, column {target[2] + 1}: face down, the Colourist showed a blue cable"'
        in page
    )


def test_the_sappers_stop_leaves_the_tile_face_down_without_a_button() -> None:
    state = new("lab-n457", seed=2)  # Analyst, Sapper
    where = face_down_of(state, "explosive")
    state = cut(state, where)
    assert GAME.to_act(state) == [0]
    page = board_html(GAME, state, 0)
    assert "Pass: let the cut go ahead" in page
    assert f"names the tile at row {where[1] + 1}, column {where[2] + 1} to cut." in text_of(page)
    state = act(state, 0, {"type": "use", "consultant": "sapper"})
    page = board_html(GAME, state, 1)
    assert "The Sapper stopped your cut: tap another tile to cut it." in text_of(page)
    assert "iab-badge--stop" in page
    cuts = {(action["row"], action["column"]) for action in buttons(page) if action["type"] == "cut"}
    assert (where[1], where[2]) not in cuts and len(cuts) == 24
    assert not [action for action in buttons(page) if action["type"] == "ask"]


def test_the_surveyors_lines_are_the_edge_buttons() -> None:
    state = new("the-call", seed=2)  # Surveyor, Radio Operator, Marker
    while GAME.to_act(state) == [0]:  # the Crisis Unit may use the Marker first: it lets the moment pass
        state = act(state, 0, {"type": "pass"})
    state = ask_row(state, 0)
    page = board_html(GAME, state, 0)
    lines = [action for action in buttons(page) if action["type"] == "use_on_line"]
    assert len(lines) == 9  # every line but the asked one
    assert "iab-line-btn--survey" in page
    assert "Pick the extra line with the ⊕ buttons" in page


# -- the Countdown and the end ------------------------------------------------------


def test_the_countdown_shows_time_left_and_the_discard() -> None:
    state = ask_row(new(), 0)
    state = crisis_unit_passes(state)  # the round's advance: the 01:00 Timer leaves
    page = board_html(GAME, state, 1)
    text = text_of(page)
    assert "00:50 left" in text
    assert "6 cards in the deck: 5 Timers, the Explosion at the bottom." in text
    discard = page[page.index('class="iab-discard"') :]
    assert 'title="Timer 01:00"' in discard
    cu = board_html(GAME, state, 0)
    order = cu[cu.index('class="iab-deck-order"') : cu.index('class="iab-discard"')]
    assert order.count('class="iab-card iab-card--timer"') == 5
    assert "iab-card--explosion" in order


def test_a_defused_bomb_shows_the_team_score() -> None:
    state = new(players=2)
    for colour in ("red", "yellow", "blue"):
        state = cut(state, face_down_of(state, colour))
    assert GAME.result(state)["won"]
    score = GAME.result(state)["scores"][0]
    for seat in (0, 1, None):
        page = board_html(GAME, state, seat)
        assert buttons(page) == []
        text = text_of(page)
        assert f"Defused! Every colour is done: the bomb is defused! Team score: {score}." in text
        assert "Game over. The whole team wins together." in text


def test_an_explosive_ends_the_game_in_a_boom() -> None:
    state = new()
    state = crisis_unit_passes(cut(state, face_down_of(state, "explosive")))
    assert GAME.result(state)["won"] is False
    page = board_html(GAME, state, 1)
    text = text_of(page)
    assert "BOOM! An Explosive went off. BOOM." in text
    assert "Team score: 0 (the bomb exploded)" in text
    assert buttons(page) == []


def test_a_crisis_unit_without_consultants_is_said_so() -> None:
    # No scenario is without Consultants now; the rules still allow one.
    page = board_html(GAME, replace(new("no-voice"), consultants=()), 1)
    assert "None in this scenario" in page
    assert "Purple rule" in page and "Cutting order" not in page


# -- every scenario (the shared tests play the default one only) ----------------------


@pytest.mark.parametrize("scenario", SCENARIO_SLUGS)
def test_every_scenario_gives_each_legal_action_one_button_and_leaks_nothing(scenario: str) -> None:
    rng = random.Random(5)
    options = {"scenario": scenario}
    states = [
        state
        for seed in (1, 2, 3)
        for state in random_states(GAME, 3, seed=seed * 31 + len(scenario), options=options)
    ]
    for index, state in enumerate(states):
        waiting = GAME.to_act(state)
        for seat in (0, 1, 2):
            page = board_html(GAME, state, seat)
            expected = GAME.legal_actions(state, seat) if seat in waiting else []
            assert sorted(json.dumps(action, sort_keys=True) for action in buttons(page)) == sorted(
                json.dumps(action, sort_keys=True) for action in expected
            ), (scenario, index, seat)
            assert "iab-other-actions" not in page  # every action found its place on the board
        if index % 4 == 0:
            viewers: tuple[int | None, ...] = (1, 2, None)
            for viewer in viewers:
                resampled = GAME.sample(GAME.view(state, viewer), viewer, rng)
                assert without_action_ids(board_html(GAME, state, viewer)) == without_action_ids(
                    board_html(GAME, resampled, viewer)
                ), (scenario, index, viewer)
