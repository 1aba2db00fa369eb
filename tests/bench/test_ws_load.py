"""bench/ws_load.py: it reads moves from a board as the page does, and a tiny run of it
against the site and the echo baseline reports sane figures and nothing lost."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

from bench.ws_players import act_forms
from games import selectors
from games.live.fragments import live_html
from games.models import Match
from games.services import match_submit_action
from tests.conftest import ROOT
from tests.games.helpers import canonical, seat


@pytest.mark.django_db
def test_the_moves_read_from_a_board_are_its_seats_legal_actions_as_the_page_sends_them(
    two_player_match: Match,
) -> None:
    state = two_player_match.decoded_state()
    players = [seat(two_player_match, index).user for index in (0, 1)]
    for index, player in enumerate(players):
        assert player is not None
        board = live_html(selectors.access(two_player_match.pk, player))
        messages = act_forms(board)
        legal = two_player_match.engine.legal_actions(state, index)
        assert legal, "both seats choose a card at the start"
        assert canonical([message["action"] for message in messages]) == canonical(legal)
        assert {message["ply"] for message in messages} == {two_player_match.ply}
        assert len({message["action_id"] for message in messages}) == len(messages)
        assert all(list(message) == ["type", "action", "ply", "action_id"] for message in messages)
    # A message read from the board is one the site takes as it is.
    ann = players[0]
    assert ann is not None
    first = act_forms(live_html(selectors.access(two_player_match.pk, ann)))[0]
    played = match_submit_action(
        match_id=two_player_match.pk,
        user=ann,
        action=first["action"],
        ply=first["ply"],
        action_id=first["action_id"],
    )
    assert played.ply == two_player_match.ply + 1 and not played.duplicate


def run_bench(*options: str) -> dict[str, Any]:
    # The embedded mode, in a var folder of the bench's own, whatever this test run uses.
    env = {name: value for name, value in os.environ.items() if name not in ("DATABASE_URL", "REDIS_URL")}
    finished = subprocess.run(
        [sys.executable, "-m", "bench.ws_load", "--json", *options],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert finished.returncode == 0, finished.stderr[-3000:] + finished.stdout[-3000:]
    report: dict[str, Any] = json.loads(finished.stdout)
    return report


@pytest.mark.slow
def test_a_small_run_against_the_site_and_the_baseline_reports_sane_figures_and_loses_nothing() -> None:
    report = run_bench("--matches", "2", "--rates", "4", "--step-seconds", "4", "--drain-seconds", "20")

    checks = report["checks"]
    assert checks["ok"] is True
    assert checks["database"] == []
    assert set(checks["targets"]) == {"site", "baseline"}
    for target in checks["targets"].values():
        assert target["errors"] == []
        assert (target["lost"], target["duplicates"]) == (0, 0)
        assert target["moves"] > 0
    steps = {step["target"]: step for step in report["steps"]}
    assert set(steps) == {"site", "baseline"}
    for step in steps.values():
        assert step["rate"] == 4
        # 4 moves/s for 4 s: 8 by each of the two matches, fewer if moves took over half a second.
        assert 0 < step["moves"] <= 16
        assert step["achieved"] == step["moves"] / 4
        for latencies in (step["acted_ms"], step["own_board_ms"], step["opponent_ms"]):
            p50, p95, p99 = latencies
            assert 0 < p50 <= p95 <= p99 < 20_000
        assert step["server_cpu_ms_per_move"] > 0
        assert 0 < step["client_cpu_share"] < 1
    assert report["conditions"]["storage"] == "SQLite (embedded) + embedded Redis"
    assert [row["rate"] for row in report["ratios"]] == [4]
    assert report["ratios"][0]["opponent_p50"] > 0
