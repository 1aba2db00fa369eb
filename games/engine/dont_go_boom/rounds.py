"""A round of Don't Go Boom from deal to score: setup, the simultaneous first flip,
the end of each turn (final lap, turn cap), scoring and the end of the game.

Every function takes a state and returns a new one (``state.evolve``, copying only
what changes); ``rules`` plays the turn itself and hands each finished turn here.
"""

from __future__ import annotations

from typing import Any

from games.engine.cards import deal, replace_at
from games.engine.dont_go_boom.cards import (
    BOMB,
    CARD_COUNT,
    GRID_SIZE,
    KIND,
    LINE_NAMES,
    POSITION_WORDS,
    VALUE,
    card_data,
    score_values,
    the_card,
    zero_lines,
)
from games.engine.dont_go_boom.state import (
    CHOOSE,
    DECIDE,
    DRAW,
    FLIP,
    NO_CARD,
    NO_SEAT,
    OVER,
    TURNS_PER_PLAYER_CAP,
    DontGoBoomState,
    evolve,
)
from games.engine.errors import IllegalAction
from games.engine.log import LogEntry, entry
from games.engine.rng import RngState, resume
from games.engine.seats import next_seat, seats_from

_ALL_DOWN = (False,) * GRID_SIZE
_ALL_UP = (True,) * GRID_SIZE


# -- setup ---------------------------------------------------------------------


def new_game(players: int, rng_state: RngState, rounds: int) -> DontGoBoomState:
    empty = DontGoBoomState(
        players=players,
        rounds=rounds,
        round=0,
        rng=rng_state,
        ids=(),
        grids=(),
        face_up=(),
        peeked=(),
        deck=(),
        discard=(),
        removed=(),
        public_deck=(),
        phase=CHOOSE,
        chosen=(),
        turn=NO_SEAT,
        held=NO_CARD,
        held_from="",
        turns_taken=0,
        final_lap_trigger=NO_SEAT,
        final_lap=(),
        round_scores=(),
        log=(),
    )
    return _deal_round(empty, 1)


def _deal_round(state: DontGoBoomState, round_number: int) -> DontGoBoomState:
    rng = resume(state.rng)
    ids = rng.unique_tokens(CARD_COUNT)
    grids, deck = deal(rng.shuffled(range(CARD_COUNT)), state.players, GRID_SIZE)
    note = entry(
        "round_start",
        None,
        f"Round {round_number} of {state.rounds}: everyone gets nine face-down cards "
        "and chooses one to turn face up.",
        {"round": round_number},
    )
    return evolve(
        state,
        round=round_number,
        rng=rng.state,
        ids=ids,
        grids=grids,
        face_up=(_ALL_DOWN,) * state.players,
        peeked=((),) * state.players,
        deck=deck,
        discard=(),
        removed=(),
        public_deck=(),
        phase=CHOOSE,
        chosen=(NO_CARD,) * state.players,
        turn=NO_SEAT,
        held=NO_CARD,
        held_from="",
        turns_taken=0,
        final_lap_trigger=NO_SEAT,
        final_lap=(),
        log=(*state.log, note),
    )


def choose(state: DontGoBoomState, seat: int, position: int) -> DontGoBoomState:
    """The simultaneous first flip: the choice stays secret until everyone has chosen."""
    if state.phase != CHOOSE:
        raise wrong_phase(state)
    chosen = replace_at(state.chosen, seat, position)
    note = LogEntry("chose", seat, f"{{s{seat}}} has chosen a card to turn face up.")
    state = evolve(state, chosen=chosen, log=(*state.log, note))
    if NO_CARD in chosen:
        return state
    return _start_play(state)


def _start_play(state: DontGoBoomState) -> DontGoBoomState:
    """Everyone has chosen: turn the chosen cards up, start the discard pile, pick who starts."""
    face_up = tuple(replace_at(_ALL_DOWN, position, True) for position in state.chosen)
    revealed = []
    parts = []
    for seat, position in enumerate(state.chosen):
        card = state.grids[seat][position]
        revealed.append({"seat": seat, "position": position, "card": card_facts(state, card)})
        parts.append(f"{{s{seat}}} {the_card(card)} in {POSITION_WORDS[position]}")
    log = [
        *state.log,
        entry("revealed", None, "Cards turn face up: " + "; ".join(parts) + ".", {"revealed": revealed}),
    ]

    rng = resume(state.rng)
    deck = state.deck
    public_deck: set[int] = set()
    # Ruling: a bomb turned to start the discard pile goes back into the deck,
    # shuffled, until a non-bomb turns up. Everyone then knows that bomb is in the deck.
    while KIND[deck[0]] == BOMB:
        bomb = deck[0]
        public_deck.add(bomb)
        deck = rng.shuffled(deck)
        log.append(
            entry(
                "start_card_bomb",
                None,
                "A Big Bad Bomb turned up to start the discard pile; it is shuffled back into the deck.",
                {"card": card_facts(state, bomb)},
            )
        )
    start_card = deck[0]
    log.append(
        entry(
            "start_card",
            None,
            f"{the_card(start_card).capitalize()} starts the discard pile.",
            {"card": card_facts(state, start_card)},
        )
    )

    values = [VALUE[state.grids[seat][position]] for seat, position in enumerate(state.chosen)]
    highest = max(values)
    tied = [seat for seat, value in enumerate(values) if value == highest]
    first = tied[0] if len(tied) == 1 else rng.choice(tied)
    if len(tied) == 1:
        text = f"{{s{first}}} turned up the highest card and goes first."
    else:
        names = ", ".join(f"{{s{seat}}}" for seat in tied)
        text = f"{names} tie for the highest card; a random draw picks {{s{first}}} to go first."
    log.append(entry("first_player", first, text, {"tied": tied, "value": highest}))

    return evolve(
        state,
        rng=rng.state,
        face_up=face_up,
        deck=deck[1:],
        discard=(start_card,),
        public_deck=tuple(sorted(public_deck)),
        phase=DRAW,
        chosen=(),
        turn=first,
        log=tuple(log),
    )


# -- end of a turn, of a round, of the game ---------------------------------------


def end_turn(state: DontGoBoomState, **changes: Any) -> DontGoBoomState:
    """Make the turn's last ``changes``, then pass the turn on or end the round (one copy)."""
    players = state.players
    turns_taken = state.turns_taken + 1
    changes.update(turns_taken=turns_taken, held=NO_CARD, held_from="", phase=DRAW)
    if state.final_lap_trigger != NO_SEAT:
        remaining = state.final_lap[1:]
        if not remaining:
            return _end_round(evolve(state, final_lap=(), **changes))
        return evolve(state, turn=remaining[0], final_lap=remaining, **changes)

    face_up = changes.get("face_up", state.face_up)
    log = changes.get("log", state.log)
    all_up = [seat for seat in range(players) if all(face_up[seat])]
    if all_up:
        # Ruling: every player not all face up takes one more turn, from the next
        # seat on; the player whose turn just ended comes last if they are still owed one.
        trigger = state.turn if state.turn in all_up else all_up[0]
        remaining = tuple(
            seat for seat in seats_from(next_seat(state.turn, players), players) if not all(face_up[seat])
        )
        names = ", ".join(f"{{s{seat}}}" for seat in remaining)
        text = f"{{s{trigger}}}'s minefield is all face up: final lap! " + (
            f"One more turn each for {names}." if remaining else "Nobody is owed another turn."
        )
        note = entry("final_lap", trigger, text, {"remaining": list(remaining)})
        changes.update(final_lap_trigger=trigger, final_lap=remaining, log=(*log, note))
        if not remaining:
            # Not reachable in play (someone was all face up before the trigger), kept for safety.
            return _end_round(evolve(state, **changes))
        return evolve(state, turn=remaining[0], **changes)

    if turns_taken >= TURNS_PER_PLAYER_CAP * players:
        text = f"The round has lasted {TURNS_PER_PLAYER_CAP} turns per player: it ends now."
        changes["log"] = (*log, LogEntry("turn_cap", None, text))
        return _end_round(evolve(state, **changes))
    return evolve(state, turn=next_seat(state.turn, players), **changes)


def round_scores(state: DontGoBoomState) -> tuple[int, ...]:
    """Every minefield's score as if all its cards were face up."""
    return tuple(score_values([VALUE[card] for card in grid]) for grid in state.grids)


def _end_round(state: DontGoBoomState) -> DontGoBoomState:
    scores = round_scores(state)
    minefields = []
    for grid in state.grids:
        values = [VALUE[card] for card in grid]
        minefields.append(
            {
                "cards": [card_facts(state, card) for card in grid],
                "zero_lines": [LINE_NAMES[line] for line in zero_lines(values)],
                "score": score_values(values),
            }
        )
    text = f"Round {state.round} is over. " + ", ".join(
        f"{{s{seat}}} scores {score}" for seat, score in enumerate(scores)
    )
    note = entry(
        "round_end",
        None,
        text + ".",
        {"round": state.round, "minefields": minefields, "scores": list(scores)},
    )
    state = evolve(
        state,
        round_scores=(*state.round_scores, scores),
        turn=NO_SEAT,
        log=(*state.log, note),
    )
    if state.round < state.rounds:
        return _deal_round(state, state.round + 1)
    totals = game_totals(state)
    best = min(totals)
    winners = [seat for seat, total in enumerate(totals) if total == best]
    names = " and ".join(f"{{s{seat}}}" for seat in winners)
    verb = "wins" if len(winners) == 1 else "share the win"
    note = entry(
        "game_over",
        None,
        f"The game is over: {names} {verb} with {best} points.",
        {"totals": list(totals)},
    )
    # The last round's minefields stay on the table, every card face up.
    return evolve(
        state,
        phase=OVER,
        face_up=(_ALL_UP,) * state.players,
        peeked=((),) * state.players,
        log=(*state.log, note),
    )


def game_totals(state: DontGoBoomState) -> tuple[int, ...]:
    return tuple(sum(scores[seat] for scores in state.round_scores) for seat in range(state.players))


# -- helpers shared with rules ----------------------------------------------------


def card_facts(state: DontGoBoomState, card: int) -> dict[str, Any]:
    return card_data(card, state.ids[card])


def wrong_phase(state: DontGoBoomState) -> IllegalAction:
    expected = {
        CHOOSE: "choose a card to turn face up",
        DRAW: "draw a card (from the deck or the discard pile)",
        DECIDE: "decide what to do with the card you hold",
        FLIP: "turn one of your face-down cards face up",
    }.get(state.phase, "wait")
    return IllegalAction("wrong_phase", f"That is not possible now: you must {expected}.")
