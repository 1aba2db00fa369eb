"""Rebuilding a match from what it keeps: game, options, seed, generator, seats, moves.

Every move of every match is stored, and the engine is deterministic, so any position
of a match can be worked out again on the server: the admin's public log of a move,
an email's "what happened since your turn", replays, and the fair-deal check below.
The seed never leaves the server while a match runs; once it is over, its seed and
salt are public, and anyone can check the deal (``verify``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from games.boards import build_board, stopped_words
from games.engine import IllegalAction
from games.engine.log import render_text
from games.models import Match, Move, ResignReason, Seat


def commitment(seed: int, salt: str) -> str:
    """What a match publishes when it starts: SHA-256 of its seed and salt, so that the
    seed shown when it ends can be checked to be the one it was dealt from."""
    return hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()


def states(match: Match, *, until: int | None = None) -> Iterator[tuple[int, Any]]:
    """(ply, state) from the first state on, one per stored move applied, up to the
    state before move ``until`` (all of them by default). Raises ``IllegalAction`` when
    a stored move no longer applies (the game's rules changed since it was played)."""
    game = match.engine
    players = match.seats.count()
    state = game.new(players, match.seed, match.options, generator=match.generator)
    yield 0, state
    moves = match.moves.order_by("ply")
    if until is not None:
        moves = moves.filter(ply__lt=until)
    for move in moves.only("ply", "seat", "action"):
        state = game.apply(state, move.seat, move.action)
        yield move.ply + 1, state


def state_at(match: Match, ply: int) -> Any:
    """The state after ``ply`` moves."""
    *_, (_, state) = states(match, until=ply)
    return state


@dataclass(frozen=True)
class Verification:
    ok: bool
    moves: int
    why: str  # what was checked, or what differs, in words

    @property
    def headline(self) -> str:
        return "The deal checks out." if self.ok else "The deal does not check out."


def verify(match: Match) -> Verification:
    """Replay a finished match from its revealed seed and compare with what it recorded:
    the published commitment, the state, and the result."""
    if match.status != Match.Status.FINISHED or match.seed is None:
        return Verification(False, 0, "Only a finished match can be checked: its seed is secret until then.")
    if match.seed_commitment and commitment(match.seed, match.seed_salt) != match.seed_commitment:
        return Verification(
            False, 0, "The seed and salt do not match the commitment shown when the match began."
        )
    game = match.engine
    count = Move.objects.filter(match=match).count()
    try:
        *_, (ply, final) = states(match)
    except IllegalAction as error:
        return Verification(False, 0, f"A recorded move no longer applies: {error}")
    if ply != match.ply or ply != count:
        return Verification(False, ply, f"{ply} moves replayed, but the match recorded {match.ply}.")
    if _canonical(game.encode(final)) != _canonical(match.state):
        return Verification(
            False, ply, "Replayed from the seed, the moves end in another position than recorded."
        )
    replayed = game.result(final)
    if replayed is not None and replayed.get("ranks") is not None and match.result is not None:
        recorded = match.result.get("ranks")
        # A resignation changes the ranks the engine gives; those are checked by the seats.
        if not match.result.get("resigned") and recorded != replayed["ranks"]:
            return Verification(False, ply, "The replayed result differs from the recorded one.")
    return Verification(True, ply, f"{ply} moves replayed from the seed: the position and the result match.")


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


# -- replays: a match step by step, through one pair of eyes -----------------------

PUBLIC = "public"  # a spectator's eyes: public knowledge only
EVERYTHING = "all"  # every hand and face-down card (finished matches, games with ``reveal``)


class NotShown(Exception):
    """These eyes or this step are not the viewer's to see (a clear message for people)."""


@dataclass(frozen=True)
class Frame:
    board: Any  # games.boards.Board, drawn from the chosen eyes only
    step: int  # moves made before this picture: 0 .. last
    last: int
    eyes: str  # PUBLIC, EVERYTHING or "seat-<n>"
    new_entries: int  # log entries the step's move added, as these eyes see them (to highlight)
    # Everything revealed: per log entry (oldest first), what a seat's own log said of it
    # where that differs from the public words, as (seat's name, its text).
    known_only_to: tuple[tuple[tuple[str, str], ...], ...] = ()

    @property
    def previous(self) -> int:
        return max(self.step - 1, 0)

    @property
    def next(self) -> int:
        return min(self.step + 1, self.last)

    @property
    def log(self) -> list[dict[str, Any]]:
        """The board's log, newest first, the entries of this step marked ``current``, and
        (everything revealed) what only some seats were told of each."""
        private = list(reversed(self.known_only_to))
        return [
            {
                **entry,
                "current": index < self.new_entries,
                "known_only_to": private[index] if index < len(private) else (),
            }
            for index, entry in enumerate(self.board.log)
        ]


def eyes_offered(match: Match, my_seat: int | None) -> list[tuple[str, str]]:
    """The eyes a viewer may replay ``match`` with, as (value, words): every seat's and
    everything revealed once it is over; while it runs, the viewer's own seat and a
    spectator's (``my_seat``: the viewer's seat, None for others)."""
    names = [seat.public_name for seat in match.seats.select_related("user").order_by("index")]
    if match.status == Match.Status.FINISHED:
        offered = [(f"seat-{index}", f"{name}'s eyes") for index, name in enumerate(names)]
        offered.append((PUBLIC, "A spectator's eyes"))
        offered.append((EVERYTHING, "Everything revealed"))
        return offered
    offered = [(PUBLIC, "A spectator's eyes")]
    if my_seat is not None:
        offered.insert(0, (f"seat-{my_seat}", "Your eyes"))
    return offered


def stopped_at(match: Match, seats: list[Seat], state: Any, *, you: int | None) -> str | None:
    """``stopped_words`` for ``match`` at ``state``, its last, with seat ``you`` as "You";
    None when the match runs or ended as its game does."""
    if match.status == Match.Status.CANCELLED:
        return stopped_words(cancelled=True, resigned=[])
    if match.status != Match.Status.FINISHED or match.engine.result(state) is not None:
        return None
    resigned = [
        ("You" if seat.index == you else seat.public_name, seat.resigned_reason == ResignReason.TIMED_OUT)
        for seat in seats
        if seat.resigned_at is not None
    ]
    return stopped_words(cancelled=False, resigned=resigned)


def frame(match: Match, *, step: int, eyes: str, my_seat: int | None) -> Frame:
    """The picture of ``match`` after ``step`` moves, through ``eyes``. Raises
    ``NotShown`` for eyes the viewer may not use (another seat's, or everything, while
    the match runs) and clamps ``step`` into the match's moves."""
    if eyes not in {value for value, _ in eyes_offered(match, my_seat)}:
        raise NotShown("Those eyes are not yours to replay this match with (yet).")
    last = match.ply
    step = max(0, min(step, last))
    seats = list(match.seats.select_related("user").order_by("index"))
    seat = int(eyes.removeprefix("seat-")) if eyes.startswith("seat-") else None
    game = match.engine

    def seen(some_state: Any) -> dict[str, Any]:
        # Everything revealed is for finished matches only: eyes_offered saw to that.
        return game.reveal(some_state) if eyes == EVERYTHING else game.view(some_state, seat)

    before, state = None, None
    for _ply, current in states(match, until=step):
        before, state = state, current
    assert state is not None
    board = build_board(
        game,
        state,
        seat,
        [seat.public_name for seat in seats],
        step,
        view=seen(state) if eyes == EVERYTHING else None,
        playable=False,  # a replay is looked at, never played
        # Its last step of a match that ended before its game did says why, as the match page does.
        stopped=stopped_at(match, seats, state, you=seat) if step == last else None,
    )
    added = len(seen(state)["log"]) - (len(seen(before)["log"]) if before is not None else 0)
    private = _known_only_to(game, state, board.view, board.names) if eyes == EVERYTHING else ()
    return Frame(
        board=board, step=step, last=last, eyes=eyes, new_entries=max(added, 0), known_only_to=private
    )


def _known_only_to(
    game: Any, state: Any, revealed: dict[str, Any], names: list[str]
) -> tuple[tuple[tuple[str, str], ...], ...]:
    """For each entry of the revealed log, the seats whose own log told them more (the
    card they drew, what a touch felt like), with that text as they read it."""
    public = [str(entry.get("text", "")) for entry in revealed.get("log") or []]
    told: list[list[tuple[str, str]]] = [[] for _ in public]
    for seat, name in enumerate(names):
        own = game.view(state, seat).get("log") or []
        if len(own) != len(public):
            continue  # a log that does not line up entry for entry says nothing here
        for index, entry in enumerate(own):
            text = str(entry.get("text", ""))
            if text != public[index]:
                told[index].append((name, render_text(text, names)))
    return tuple(tuple(entry) for entry in told)
