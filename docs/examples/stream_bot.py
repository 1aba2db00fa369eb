#!/usr/bin/env python3
"""A Boomsite bot that plays from the match stream, with Python's standard library only.

It uses nothing but a token and the endpoints docs/api.md documents:

    POST /api/matches                  create a match against a house bot   (scope play)
    GET  /api/matches/<id>/stream      the match, line by line, as it moves (scope read)
    POST /api/matches/<id>/actions     a move                               (scope play)
    POST /api/matches/<id>/chat        a line in the match's chat           (scope play)
    POST /api/matches/<id>/resign      give the match up                    (scope play)
    GET  /matches/<id>/export.json     a finished match, seed and moves     (scope export)

Run it with the site's address and a token, from the command line or the environment
(docs/examples/README.md):

    export BOOMSITE_URL=https://boomsite.example BOOMSITE_TOKEN=bst_...
    python stream_bot.py play go-fox                          # to the end, first legal action
    python stream_bot.py play dont-go-boom --option rounds=1 --random 7 --say "good luck"
    python stream_bot.py play read-and-grab --resign-after 3
    python stream_bot.py export 12 13 --out exports/

How it chooses: the first of its `legal_actions` each time, or, with `--random SEED`, one
of them at random from a generator seeded with SEED (the same seed, the same choices, as
long as the site deals the same). It never makes a move up: it plays only what the
stream's last `state` line lists, and only when its seat is in that line's `to_act`.
"""

from __future__ import annotations

import argparse
import hashlib
import http.client
import json
import os
import random
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

# The stream sends an empty line every 15 seconds: a minute of nothing at all means
# the connection is dead (docs/api.md, "Streams"), and we open the stream again.
STREAM_SILENCE_SECONDS = 60


class ApiError(Exception):
    """A refusal. Every refusal is the same document, {"error": {"code", "message"}}:
    the code is stable (programs test it), the message is written for people."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message = status, code, message


class Site:
    """The site, as one token sees it."""

    def __init__(self, url: str, token: str) -> None:
        self.url = url.rstrip("/")
        self.token = token

    def _request(self, method: str, path: str, body: dict[str, Any] | None = None) -> urllib.request.Request:
        return urllib.request.Request(
            self.url + path,
            method=method,
            data=json.dumps(body).encode() if body is not None else None,
            # The token on every request; the site never takes the browser's cookie here.
            headers={"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"},
        )

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        """One request, its JSON answer; an ApiError for a refusal. It waits out the rate
        limit by itself: a request refused 429 (or 503, the site busy) is sent again, as
        it was, once the answer's Retry-After has passed."""
        while True:
            try:
                with urllib.request.urlopen(self._request(method, path, body), timeout=30) as answer:
                    document: dict[str, Any] = json.load(answer)
                    pause_if_spent(answer.headers)
                    return document
            except urllib.error.HTTPError as refusal:
                error = as_api_error(refusal)
                if not wait_to_retry(error, refusal.headers):
                    raise error from None

    def stream(self, path: str) -> Iterator[dict[str, Any]]:
        """The lines of a stream, each a JSON object, as they come. Opened again if it
        falls silent or drops, since every stream starts with the current state."""
        failures = 0
        while True:
            try:
                # The timeout is for each read: no byte for a minute, and the read fails.
                with urllib.request.urlopen(
                    self._request("GET", path), timeout=STREAM_SILENCE_SECONDS
                ) as answer:
                    for raw in answer:  # one line at a time, as the site sends them
                        failures = 0
                        if not raw.strip():
                            continue  # a keep-alive: the connection is alive, nothing changed
                        line = json.loads(raw)
                        yield line
                        if line.get("type") in ("end", "error"):
                            return  # the stream's last word: the response ends here
                # Ended without its last word: the server restarted. Open it again.
                failures += 1
                say("stream ended early; opening it again")
            except urllib.error.HTTPError as refusal:
                # A stream that cannot open is answered as any request: the error document.
                error = as_api_error(refusal)
                if not wait_to_retry(error, refusal.headers):
                    raise error from None
            except (TimeoutError, ConnectionError, urllib.error.URLError, http.client.HTTPException) as lost:
                failures += 1  # no byte for a minute, the network gone, a response cut short
                say(f"stream lost ({lost!r}); opening it again")
            if failures > 5:
                raise SystemExit(f"the stream failed {failures} times in a row")
            time.sleep(failures)


def as_api_error(refusal: urllib.error.HTTPError) -> ApiError:
    try:
        error = json.load(refusal)["error"]
        return ApiError(refusal.code, error["code"], error["message"])
    except (ValueError, KeyError, TypeError):
        return ApiError(refusal.code, "unknown", refusal.reason)


def pause_if_spent(headers: Any) -> None:
    """Every answer says where the token stands (docs/api.md, "Rate limit"):
    RateLimit-Remaining requests are left in this window, which ends in RateLimit-Reset
    seconds (60 requests every 20 seconds per token). With none left, the next request
    would be refused 429: wait for the next window instead."""
    if headers.get("RateLimit-Remaining") == "0":
        seconds = int(headers.get("RateLimit-Reset") or 1)
        say(f"rate limit: this window's requests are spent; waiting {seconds} s")
        time.sleep(seconds)


def wait_to_retry(error: ApiError, headers: Any) -> bool:
    """Wait and say True when the same request should simply be sent again: 429
    rate_limited and 503 busy say when, in Retry-After. Anything else is an answer."""
    if error.code in ("rate_limited", "busy"):
        seconds = int(headers.get("Retry-After") or headers.get("RateLimit-Reset") or 1)
        say(f"{error.code}: sending it again in {seconds} s")
        time.sleep(seconds)
        return True
    return False


def say(text: str) -> None:
    print(text, flush=True)


# -- playing a match -----------------------------------------------------------------------


def create_match(site: Site, game: str, level: str, options: dict[str, Any]) -> dict[str, Any]:
    """A match of two: us in seat 0, the house bot of ``level`` in seat 1. It starts at
    once (every seat is taken). The answer is the match's summary."""
    body = {"game": game, "seats": ["me", f"bot-{level}"], "options": options}
    summary: dict[str, Any] = site.call("POST", "/api/matches", body)["match"]
    say(f"match {summary['id']} created: {game}, options {json.dumps(summary['options'])}, {summary['url']}")
    return summary


def send_move(site: Site, match_id: int, action: dict[str, Any], ply: int) -> bool:
    """Play ``action`` at ``ply``; False when the match moved on first (stale_ply).

    ``ply`` is the ply of the state we decided at: if the match is past it (a
    simultaneous step another seat finished first, a turn lost on time), the move is
    refused `409 stale_ply` and nothing happens. We need do nothing about it: the
    stream's next `state` line brings the position we missed, and we decide anew.

    ``action_id`` makes the move safe to send twice. If the answer is lost (the
    connection drops after the request left), we cannot know whether the move was
    played; we send the very same body again, same id, and the site answers the
    first move's result with "duplicate": true instead of playing it twice."""
    body = {"action": action, "ply": ply, "action_id": str(uuid.uuid4())}
    for attempt in range(5):
        try:
            answer = site.call("POST", f"/api/matches/{match_id}/actions", body)
        except ApiError as error:
            if error.code == "stale_ply":
                say(f"ply {ply}: stale (the match moved on); waiting for the next state")
                return False
            raise
        except (TimeoutError, ConnectionError, urllib.error.URLError) as lost:
            say(f"ply {ply}: no answer ({lost}); sending the same move again, same action_id")
            time.sleep(1 + attempt)
            continue
        if answer.get("duplicate"):
            say(f"ply {ply}: the site had played it already (duplicate)")
        return True
    raise SystemExit(f"ply {ply}: the site did not answer five times; giving up")


def play(
    site: Site,
    game: str,
    *,
    level: str,
    options: dict[str, Any],
    choose_at_random: random.Random | None,
    resign_after: int | None,
    chat: str | None,
) -> dict[str, Any]:
    """Create a match and play it from its stream to its `end` line; that line's document."""
    match = create_match(site, game, level, options)
    match_id = match["id"]
    moves_made = 0
    acted_at = -1  # the ply of our last move: a state line at or before it is old news
    chatted = resigned = introduced = False

    # The stream: `state` lines (the match as GET /api/matches/<id> shows it to us),
    # `chat` lines, and one `end` line, after which the response ends. A line of a type
    # we do not know is skipped: the site may add kinds of lines.
    for line in site.stream(f"/api/matches/{match_id}/stream"):
        kind = line.get("type")
        if kind == "chat":
            say(f"chat, seat {line['seat']} ({line['name']}): {line['text']}")
        elif kind == "end":
            say(f"match {match_id} {line['status']}: {describe(line['result'])}")
            return line
        elif kind == "error":
            # The stream cannot go on (the token was revoked, the match is not ours to see).
            raise ApiError(0, line["code"], line["message"])
        elif kind == "state":
            if not introduced:
                introduced = True
                names = ", ".join(f"{player['seat']}: {player['name']}" for player in line["players"])
                say(f"stream open at ply {line['ply']}: we are seat {line['seat']} ({names})")
            if line["status"] != "running":
                continue  # open (seats still to fill); `end` follows a finished one
            if chat and not chatted:
                chatted = True
                # Chat is a POST of its own; the line comes back to us on the stream.
                try:
                    site.call("POST", f"/api/matches/{match_id}/chat", {"text": chat})
                except ApiError as error:  # chat_closed: a role that keeps silent
                    say(f"chat refused: {error}")
            if resigned:
                continue  # the autopilot plays a resigned seat; we wait for the end
            seat, ply = line["seat"], line["ply"]
            # Our turn is when our seat is in `to_act` (several seats may act at once).
            # `legal_actions` lists exactly what we may play now, already in the form
            # the site takes: we send one back as it is.
            if seat not in line["to_act"] or not line["legal_actions"] or ply <= acted_at:
                continue
            legal = line["legal_actions"]
            action = choose_at_random.choice(legal) if choose_at_random else legal[0]
            say(f"ply {ply}: we play {json.dumps(action)} (of {len(legal)} legal)")
            if send_move(site, match_id, action, ply):
                acted_at = ply
                moves_made += 1
            if resign_after is not None and moves_made >= resign_after:
                resigned = True
                try:
                    site.call("POST", f"/api/matches/{match_id}/resign")
                    say(f"resigned after {moves_made} of our moves")
                except ApiError as error:  # not_playing: our last move ended the match
                    say(f"resigning refused: {error}")
    raise SystemExit(f"match {match_id}: the stream ended without an `end` line")


def describe(result: dict[str, Any] | None) -> str:
    """A result as people read it: ranks per seat (1 is best), scores, who resigned."""
    if not result:
        return "no result"  # cancelled before it started
    parts = [f"ranks {result['ranks']}"]
    if result.get("scores") is not None:  # None when resignations ended the match
        parts.append(f"scores {result['scores']}")
    if result.get("resigned"):
        parts.append(f"resigned {result['resigned']}")
    if "won" in result:  # cooperative games: won or lost together
        parts.append("won" if result["won"] else "lost")
    return ", ".join(parts)


# -- exporting -----------------------------------------------------------------------------


def export(site: Site, match_ids: list[int], folder: Path) -> None:
    """Download each finished match (docs/export.md) into ``folder``, and check its deal:
    the SHA-256 of "<seed>:<salt>" is the commitment the match showed from its start."""
    folder.mkdir(parents=True, exist_ok=True)
    for match_id in match_ids:
        # The export scope is a scope of its own: a token made to play may not have it.
        document = site.call("GET", f"/matches/{match_id}/export.json")
        path = folder / f"boomsite-match-{match_id}.json"
        path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
        checked = ""
        if document["commitment"]:
            digest = hashlib.sha256(f"{document['seed']}:{document['salt']}".encode()).hexdigest()
            checked = ", deal checked" if digest == document["commitment"] else ", DEAL DOES NOT MATCH"
        say(f"match {match_id} exported: {document['game']}, {len(document['moves'])} moves{checked}: {path}")


# -- the command line ----------------------------------------------------------------------


def option_value(text: str) -> tuple[str, Any]:
    """``name=value`` from the command line: a number or true/false as JSON reads it,
    anything else as text (``--option rounds=1 --option length=short``)."""
    name, separator, raw = text.partition("=")
    if not separator:
        raise argparse.ArgumentTypeError(f"{text!r} is not name=value")
    try:
        return name, json.loads(raw)
    except ValueError:
        return name, raw


def at_least_one(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of moves, 1 or more")
    return int(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="A Boomsite bot that plays from the match stream.")
    parser.add_argument("--url", default=os.environ.get("BOOMSITE_URL"), help="the site (or BOOMSITE_URL)")
    parser.add_argument(
        "--token", default=os.environ.get("BOOMSITE_TOKEN"), help="a token (or BOOMSITE_TOKEN)"
    )
    commands = parser.add_subparsers(dest="command", required=True)

    playing = commands.add_parser("play", help="play one match against a house bot, to its end")
    playing.add_argument("game", help="the game's slug: go-fox, ka-blam, ... (GET /api/games)")
    playing.add_argument("--level", default="basic", help="the house bot: random, basic or expert")
    playing.add_argument("--option", action="append", type=option_value, default=[], metavar="NAME=VALUE")
    playing.add_argument(
        "--random", type=int, metavar="SEED", help="choose at random (else the first legal action)"
    )
    playing.add_argument(
        "--resign-after", type=at_least_one, metavar="N", help="resign after N moves of ours"
    )
    playing.add_argument("--say", metavar="TEXT", help="a line for the match's chat, once it runs")

    exporting = commands.add_parser("export", help="download finished matches as JSON")
    exporting.add_argument("match_ids", type=int, nargs="+", metavar="ID")
    exporting.add_argument("--out", type=Path, default=Path("."), help="the folder to write them in")

    args = parser.parse_args(argv)
    if not args.url or not args.token:
        parser.error("give the site and a token: --url and --token, or BOOMSITE_URL and BOOMSITE_TOKEN")
    site = Site(args.url, args.token)
    try:
        if args.command == "play":
            play(
                site,
                args.game,
                level=args.level,
                options=dict(args.option),
                choose_at_random=random.Random(args.random) if args.random is not None else None,
                resign_after=args.resign_after,
                chat=args.say,
            )
        else:
            export(site, args.match_ids, args.out)
    except ApiError as error:
        print(f"refused: {error}", file=sys.stderr)
        return 1
    except (urllib.error.URLError, TimeoutError, ConnectionError) as error:
        print(f"the site did not answer: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
