"""Ka-Blam!'s rules as functions from a state to the next one.

Rules: ../shared/rules/ka-blam.md. ``start_round`` deals; ``play_card``,
``draw_turn`` and ``pass_turn`` are the three things a player can do; a round ends
in ``_end_round``, which scores it and deals the next one or ends the game.

An action gathers what it changes in a ``_Move`` and builds the new state once:
bots replay thousands of actions per decision, and copying a 19-field state for
every small step was a large share of an action's cost.
"""

from __future__ import annotations

from dataclasses import replace

from games.engine.cards import deal, reshuffle_under_top
from games.engine.ka_blam.cards import (
    COLOUR,
    COLOURS,
    EXPLODING_CARD,
    IS_WORD,
    KIND,
    MISS_A_TURN,
    PICK_UP_2,
    REVERSE,
    WILD,
    card_json,
    card_text,
    hand_value,
    words_json,
)
from games.engine.ka_blam.state import (
    ALL_PASSED,
    EMPTY_HAND,
    EXPLOSION,
    HAND_SIZE,
    NO_PLAY,
    PICK_UP,
    KaBlamState,
    RoundResult,
    deal_entry,
    draw_entry,
)
from games.engine.log import LogEntry
from games.engine.rng import Rng, resume
from games.engine.seats import next_seat
from games.engine.word_cards.facts import json_list, json_object, json_text, logged


def start_round(
    players: int,
    length: str,
    target: int,
    rng: Rng,
    ids: tuple[str, ...],
    scores: tuple[int, ...],
    round_number: int,
    dealer: int,
    rounds: tuple[RoundResult, ...],
) -> KaBlamState:
    """Deal a round from all 89 cards, the Exploding card kept out of the deal."""
    dealt, rest = deal(rng.shuffled(range(EXPLODING_CARD)), players, HAND_SIZE)
    hands = tuple(tuple(sorted(hand)) for hand in dealt)
    # An action card cannot start the discard pile: it goes to the bottom.
    turned: list[int] = []
    while not IS_WORD[rest[0]]:
        turned.append(rest[0])
        rest = (*rest[1:], rest[0])
    start, rest = rest[0], rest[1:]
    # Only now is the Exploding card added, and the whole pile shuffled once: no one
    # was dealt it, and no place in the pile (the bottom included) is known.
    pile = rng.shuffled((*rest, EXPLODING_CARD))
    first = next_seat(dealer, players)
    sent_down = "".join(
        f"{{s{dealer}}} turned over {card_text(card)} and put it at the bottom. " for card in turned
    )
    started = logged(
        "start",
        dealer,
        f"{sent_down}{{s{dealer}}} turned over {card_text(start)} to start the discard pile. "
        f"The Exploding card was shuffled into the pick-up pile. {{s{first}}} plays first.",
        json_object(
            turned=json_list(card_json(card, ids) for card in turned),
            card=card_json(start, ids),
            first=str(first),
            words=words_json(start),
        ),
    )
    return KaBlamState(
        players=players,
        length=length,
        target=target,
        rng=rng.state,
        ids=ids,
        scores=scores,
        round=round_number,
        dealer=dealer,
        hands=hands,
        pile=pile,
        discard=(start,),
        colour=COLOUR[start],
        exploded=-1,
        turn=first,
        direction=1,
        passes=0,
        log=(deal_entry(round_number, dealer, hands, ids), started),
        rounds=rounds,
    )


def can_draw(state: KaBlamState) -> bool:
    return bool(state.pile) or len(state.discard) > 1


class _Move:
    """The parts of a state one action changes; ``state()`` builds the new state once."""

    __slots__ = (
        "base",
        "colour",
        "direction",
        "discard",
        "entries",
        "exploded",
        "hands",
        "passes",
        "pile",
        "rng",
        "turn",
    )

    def __init__(self, base: KaBlamState) -> None:
        self.base = base
        self.hands = list(base.hands)
        self.pile = base.pile
        self.discard = base.discard
        self.colour = base.colour
        self.exploded = base.exploded
        self.turn = base.turn
        self.direction = base.direction
        self.passes = base.passes
        self.rng = base.rng
        self.entries: list[LogEntry] = []

    def active_count(self) -> int:
        return self.base.players - (1 if self.exploded >= 0 else 0)

    def next_active(self, seat: int, direction: int) -> int:
        """The next seat in ``direction`` that is still in the round."""
        players = self.base.players
        seat = (seat + direction) % players
        if seat == self.exploded:
            seat = (seat + direction) % players
        return seat

    def note(self, event: str, seat: int | None, text: str) -> None:
        self.entries.append(logged(event, seat, text))

    def state(self) -> KaBlamState:
        base = self.base
        return KaBlamState(
            players=base.players,
            length=base.length,
            target=base.target,
            rng=self.rng,
            ids=base.ids,
            scores=base.scores,
            round=base.round,
            dealer=base.dealer,
            hands=tuple(self.hands),
            pile=self.pile,
            discard=self.discard,
            colour=self.colour,
            exploded=self.exploded,
            turn=self.turn,
            direction=self.direction,
            passes=self.passes,
            log=base.log + tuple(self.entries),
            rounds=base.rounds,
        )


def play_card(state: KaBlamState, seat: int, card: int, named: int) -> KaBlamState:
    """``seat`` plays ``card`` (already checked to match); ``named`` is a Wild's colour."""
    move = _Move(state)
    hand = state.hands[seat]
    position = hand.index(card)
    hand = hand[:position] + hand[position + 1 :]
    move.hands[seat] = hand
    kind = KIND[card]
    move.colour = colour = named if kind == WILD else COLOUR[card]
    move.discard = (card, *state.discard)
    move.passes = 0
    if kind == WILD:
        text = f"{{s{seat}}} played a Wild and named {COLOURS[named]}."
    else:
        text = f"{{s{seat}}} played {card_text(card)}."
    public = json_object(
        card=card_json(card, state.ids), colour=f'"{COLOURS[colour]}"', words=words_json(card)
    )
    move.entries.append(logged("play", seat, text, public))
    if not hand:
        # The round is won at once; the last card's effect is ignored.
        return _end_round(move, seat, EMPTY_HAND)
    direction = move.direction
    if kind == MISS_A_TURN or (kind == REVERSE and move.active_count() == 2):
        # With two players in the round a Reverse acts as Miss a Turn.
        missed = move.next_active(seat, direction)
        move.note("miss", missed, f"{{s{missed}}} misses a turn.")
        move.turn = move.next_active(missed, direction)
    elif kind == REVERSE:
        move.direction = -direction
        move.note("reverse", seat, "Play now goes the other way.")
        move.turn = move.next_active(seat, -direction)
    elif kind == PICK_UP_2:
        victim = move.next_active(seat, direction)
        move.note("pick_up_2", victim, f"{{s{victim}}} must pick up 2 cards and misses a turn.")
        if _draw_cards(move, victim, 2, PICK_UP) and move.active_count() == 1:
            return _end_round(move, seat, EXPLOSION)
        move.turn = move.next_active(victim, direction)
    else:
        move.turn = move.next_active(seat, direction)
    return move.state()


def draw_turn(state: KaBlamState, seat: int) -> KaBlamState:
    """``seat`` cannot play: draw one card, and the turn ends."""
    move = _Move(state)
    move.passes = 0
    if _draw_cards(move, seat, 1, NO_PLAY) and move.active_count() == 1:
        return _end_round(move, move.next_active(seat, move.direction), EXPLOSION)
    move.turn = move.next_active(seat, move.direction)
    return move.state()


def pass_turn(state: KaBlamState, seat: int) -> KaBlamState:
    """Nothing to play and nothing to draw: pass; if everyone in the round has, it ends."""
    move = _Move(state)
    move.passes += 1
    move.note("pass", seat, f"{{s{seat}}} cannot play or draw and passes.")
    upcoming = move.next_active(seat, move.direction)
    if move.passes < move.active_count():
        move.turn = upcoming
        return move.state()
    # Lowest hand value wins; then fewest cards; then whoever would have played next.
    order = [upcoming]
    while len(order) < move.active_count():
        order.append(move.next_active(order[-1], move.direction))
    winner = min(order, key=lambda player: (hand_value(move.hands[player]), len(move.hands[player])))
    return _end_round(move, winner, ALL_PASSED)


def _draw_cards(move: _Move, seat: int, count: int, reason: str) -> bool:
    """``seat`` draws up to ``count`` cards, reshuffling the discard pile when the pile runs out.

    Stops at once on the Exploding card (``seat`` is then out of the round) and
    when nothing is left to draw. Returns whether ``seat`` exploded.
    """
    ids = move.base.ids
    pile = move.pile
    hand = move.hands[seat]
    exploded = False
    for _ in range(count):
        if not pile:
            if len(move.discard) < 2:
                break
            rng = resume(move.rng)
            pile, move.discard = reshuffle_under_top(move.discard, rng)
            move.rng = rng.state
            move.entries.append(
                logged(
                    "reshuffle",
                    None,
                    "The pick-up pile ran out: the discard pile (all but its top card) "
                    "was shuffled into a new one.",
                    json_object(pile_size=str(len(pile)), words="[]"),
                )
            )
        card, pile = pile[0], pile[1:]
        hand = tuple(sorted((*hand, card)))
        if card == EXPLODING_CARD:
            exploded = True
            move.exploded = seat
            move.entries.append(
                logged(
                    "explode",
                    seat,
                    f"{{s{seat}}} drew the Exploding card: KA-BLAM! {{s{seat}}} is out of the round.",
                    json_object(card=card_json(card, ids), reason=f'"{reason}"', words=words_json(card)),
                )
            )
            break
        move.entries.append(draw_entry(seat, card, ids, reason, len(pile)))
    move.pile = pile
    move.hands[seat] = hand
    return exploded


def _end_round(move: _Move, winner: int, reason: str) -> KaBlamState:
    """Score the round for ``winner``, then deal the next one or end the game."""
    state = move.state()
    values = [hand_value(hand) for hand in state.hands]
    points = sum(value for seat, value in enumerate(values) if seat != winner)
    scores = tuple(score + points if seat == winner else score for seat, score in enumerate(state.scores))
    result = RoundResult(state.round, state.dealer, winner, reason, points, state.hands, state.exploded)
    why = {
        EMPTY_HAND: f"{{s{winner}}} played their last card",
        EXPLOSION: f"{{s{winner}}} is the last player left",
        ALL_PASSED: f"No one could play or draw, and {{s{winner}}} holds the lowest hand",
    }[reason]
    scored = logged(
        "round_end",
        winner,
        f"{why}: {{s{winner}}} wins round {state.round} and scores {points} points.",
        json_object(
            round=str(state.round),
            winner=str(winner),
            reason=f'"{reason}"',
            points=str(points),
            hands=json_list(json_list(card_json(card, state.ids) for card in hand) for hand in state.hands),
            values=json_text(values),
            scores=json_text(list(scores)),
            words="[]",
        ),
    )
    rounds = (*state.rounds, result)
    if state.length == "short" or scores[winner] >= state.target:
        return replace(state, scores=scores, rounds=rounds, turn=-1, passes=0, log=(*state.log, scored))
    return start_round(
        state.players,
        state.length,
        state.target,
        resume(state.rng),
        state.ids,
        scores,
        state.round + 1,
        next_seat(state.dealer, state.players),
        rounds,
    )
