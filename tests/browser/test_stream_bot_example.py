"""docs/examples/stream_bot.py, run as a programmer runs it, against the real site
(Daphne, and a Celery worker for the house bots), with its account's tokens (play,
read, export) and nothing of this project on its path: one match of each of the seven
games against the basic bot, played from the match stream to its `end` line; one
resigned, one chatted in; then all seven exported and checked (every move, the seed
against its commitment, the replay against the result).

The seven matches run at once, seven copies of the program, each with a token of its
own: one token's budget (60 requests every 20 seconds) would hold the seven back for
half a minute. Two of the tokens start with their budget spent, so that the program's
rate-limit handling is part of what passes: one is refused 429 (and waits out
Retry-After), the other is told RateLimit-Remaining: 0 (and waits out RateLimit-Reset)."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from accounts.models import ApiScope, User
from accounts.services import api_token_create
from boomsite import rate_limit
from games.api import API_REQUESTS_PER_WINDOW, API_WINDOW_SECONDS
from games.engine import get
from games.models import ChatMessage, Match
from tests.browser.helpers import off_the_event_loop
from tests.conftest import ensure_bot_accounts

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

THE_BOT = Path(settings.BASE_DIR) / "docs" / "examples" / "stream_bot.py"
CHAT = "good luck, Basic Bot"
# Each game's shortest match, and what the program does besides playing it.
RUNS = {
    "booby-trap": [],
    "boom-box": ["--random", "1"],  # the seeded random choice, once
    "dont-go-boom": ["--option", "rounds=1", "--say", CHAT],
    "go-fox": [],
    "its-a-bomb": [],  # the training bomb, the default
    "ka-blam": ["--option", "length=short"],
    "read-and-grab": ["--resign-after", "3"],
}
RESIGNED = "read-and-grab"
REFUSED_AT_ONCE = "its-a-bomb"  # its token's budget is spent: its first request is refused 429
TOLD_TO_WAIT = "booby-trap"  # one request left: its first answer says RateLimit-Remaining: 0


def a_programmer() -> dict[str, str]:
    """The programmer's tokens (play, read, export): one for each game's run, one to export."""
    ensure_bot_accounts()
    robo = User.objects.create_user(username="robo", password="pw-robo-1234")
    scopes = (ApiScope.PLAY, ApiScope.READ, ApiScope.EXPORT)
    return {name: api_token_create(user=robo, name=name, scopes=scopes)[1] for name in [*RUNS, "export"]}


def spend_budgets(tokens: dict[str, str]) -> None:
    """Count requests against two tokens as though their programs had made them, in a
    window with a few seconds still to run (so the window does not end before they start)."""
    key = f"api:{rate_limit.key_of(tokens[REFUSED_AT_ONCE])}"
    while rate_limit.peek(key, limit=API_REQUESTS_PER_WINDOW, window_seconds=API_WINDOW_SECONDS).reset < 4:
        time.sleep(0.5)
    for game, leave in ((REFUSED_AT_ONCE, 0), (TOLD_TO_WAIT, 1)):
        for _ in range(API_REQUESTS_PER_WINDOW - leave):
            rate_limit.take(
                f"api:{rate_limit.key_of(tokens[game])}",
                limit=API_REQUESTS_PER_WINDOW,
                window_seconds=API_WINDOW_SECONDS,
            )


def the_bot(site: str, token: str, *args: str, output: Path) -> subprocess.Popen[bytes]:
    """The program, its site and token from the environment as the README runs it, with
    Python's standard library alone on its path (-I: none of this project's folders or
    variables; -S: no site-packages); what it prints goes to ``output``."""
    environment = {"BOOMSITE_URL": site, "BOOMSITE_TOKEN": token, "PATH": "/usr/bin:/bin"}
    with open(output, "wb") as printed:
        return subprocess.Popen(
            [sys.executable, "-I", "-S", str(THE_BOT), *args], env=environment, stdout=printed, stderr=printed
        )


def created(printed: str) -> int:
    found = re.search(r"^match (\d+) created", printed, re.M)
    assert found, printed[-800:]
    return int(found.group(1))


def test_the_stream_bot_plays_resigns_chats_and_exports_every_game(live_site: str, tmp_path: Path) -> None:
    tokens = off_the_event_loop(a_programmer)
    spend_budgets(tokens)
    started = time.monotonic()
    running = {
        game: the_bot(live_site, tokens[game], "play", game, *args, output=tmp_path / f"{game}.txt")
        for game, args in RUNS.items()
    }
    took: dict[str, float] = {}
    while len(took) < len(running):  # each one's time, as it ends
        assert time.monotonic() - started < 420, f"still playing: {set(running) - set(took)}"
        took.update(
            {
                game: time.monotonic() - started
                for game, process in running.items()
                if game not in took and process.poll() is not None
            }
        )
        time.sleep(0.2)
    played = time.monotonic() - started
    outputs = {game: (tmp_path / f"{game}.txt").read_text(encoding="utf-8") for game in RUNS}
    for game, process in running.items():
        assert process.returncode == 0, f"{game}: {outputs[game][-800:]}"
    ids = {game: created(printed) for game, printed in outputs.items()}
    matches = off_the_event_loop(
        lambda: {match.pk: match for match in Match.objects.filter(pk__in=ids.values())}
    )
    results: dict[str, dict[str, Any]] = {}
    for game, match_id in ids.items():
        match = matches[match_id]
        assert (match.game, match.status) == (game, Match.Status.FINISHED) and match.result
        results[game] = match.result
        assert f"match {match_id} finished: ranks {match.result['ranks']}" in outputs[game]
    # The resigned one ended at once, its seat last; the others were played out.
    assert (results[RESIGNED]["resigned"], results[RESIGNED]["ranks"]) == ([0], [2, 1])
    assert "resigned after 3 of our moves" in outputs[RESIGNED]
    assert len(re.findall(r"^ply \d+: we play", outputs[RESIGNED], re.M)) == 3
    # The chat line was stored, and came back on the stream.
    chat = off_the_event_loop(
        lambda: list(ChatMessage.objects.values_list("match_id", "user__username", "text"))
    )
    assert chat == [(ids["dont-go-boom"], "robo", CHAT)]
    assert f"chat, seat 0 (robo): {CHAT}" in outputs["dont-go-boom"]

    # The program's waits on the rate limit: a 429 answered, a spent window waited out.
    assert "rate_limited: sending it again in " in outputs[REFUSED_AT_ONCE]
    assert "rate limit: this window's requests are spent; waiting " in outputs[TOLD_TO_WAIT]

    exports = tmp_path / "exports"
    exporting = the_bot(
        live_site, tokens["export"], "export", *map(str, ids.values()), "--out", str(exports),
        output=tmp_path / "export.txt",
    )  # fmt: skip
    exporting.wait(timeout=120)
    printed = (tmp_path / "export.txt").read_text(encoding="utf-8")
    assert exporting.returncode == 0, printed[-800:]
    assert printed.count("deal checked") == len(RUNS)
    for game, match_id in ids.items():
        exported = json.loads((exports / f"boomsite-match-{match_id}.json").read_text(encoding="utf-8"))
        the_export_is_whole(exported, matches[match_id], resigned=game == RESIGNED)
    print(
        f"\nplayed in {played:.1f} s (each done at: "
        + ", ".join(f"{game} {seconds:.1f} s" for game, seconds in took.items())
        + f"); exported in {time.monotonic() - started - played:.1f} s"
    )


def the_export_is_whole(exported: dict[str, Any], match: Match, *, resigned: bool) -> None:
    """Every move, in order; the seed the match committed to; and, replayed with the
    engine from that seed, the match's result (its ranks, but for a resignation)."""
    assert (exported["format"], exported["id"], exported["game"]) == ("boomsite-match", match.pk, match.game)
    assert exported["options"] == match.options and exported["result"] == match.result
    seed = exported["seed"]
    assert (
        seed.isdigit()
        and hashlib.sha256(f"{seed}:{exported['salt']}".encode()).hexdigest() == exported["commitment"]
    )
    assert [move["ply"] for move in exported["moves"]] == list(range(match.ply)) and match.ply > 0
    game = get(exported["game"])
    state = game.new(
        len(exported["players"]), int(seed), exported["options"], generator=exported["generator"]
    )
    for move in exported["moves"]:
        state = game.apply(state, move["seat"], move["action"])
    if resigned:
        assert game.result(state) is None  # given up halfway: the engine's game was not over
    else:
        replayed = game.result(state)
        assert replayed and replayed["ranks"] == exported["result"]["ranks"]
