"""Ka-Blam! bots: shed cards while keeping the next play open; Wilds last.

Play is compulsory in Ka-Blam!, so the only real choice is *which* card to play
(and, with a Wild, which colour to name). The rules of thumb, in order:

- a Wild matches anything, so it is kept for when nothing else can be played;
  its colour is the one we hold most of (so our next card follows);
- action cards are worth 10 points if we are caught holding them and they hurt
  the next player: with two players a Miss a Turn, a Reverse or a Pick Up 2 even
  gives us the next turn, so they go first;
- otherwise shed the card worth most points (the round's winner scores what we
  still hold) among those that leave us cards to follow with (the colour we
  hold most);
- leave the next player a colour they have just shown they lack: a player who
  drew because they could not follow a colour held none of it then.

``basic`` reads the hand, the top of the discard pile and the log from the view;
``rollout`` runs the same choice straight on a (sampled) state's integers, without
reading the log; ``evaluate`` guesses who wins from scores and hand sizes, so that
search can stop a playout after ``ROLLOUT_DEPTH`` actions.
"""

from __future__ import annotations

import math
import random
from typing import Any

from games.engine.base import Game
from games.engine.ka_blam.cards import (
    COLOUR,
    COLOURS,
    KIND,
    MISS_A_TURN,
    PICK_UP_2,
    POINTS,
    REVERSE,
    WILD,
    card_of_view,
    hand_value,
    matches,
)
from games.engine.ka_blam.state import NO_PLAY, KaBlamState

_ACTIONS = (MISS_A_TURN, PICK_UP_2, REVERSE)
NO_COLOUR = -1
# Search playouts stop after this many actions and ``evaluate`` guesses the rest: about
# one round with two players (a long game runs to some 230 actions, several rounds).
ROLLOUT_DEPTH = 80

# How ``choose_card`` weighs a card (tuned against the random bot, two players).
FOLLOW = 2.0  # per card left in hand that could follow it
SHED = 1.5  # per point of the card itself: get rid of what the winner would score
EXTRA_TURN = 25.0  # two players: a Miss a Turn, Reverse or Pick Up 2 gives us the next turn
HURT = 6.0  # more players: a Miss a Turn or Pick Up 2 holds the next player back...
HURT_NEAR_WIN = 12.0  # ...and more so when they are about to go out
WEAK_COLOUR = 5.0  # it leaves the next player a colour they could not follow lately


def choose_card(
    hand: list[int],
    top: int,
    colour: int,
    players: int,
    next_hand_size: int,
    weak_colours: frozenset[int] = frozenset(),
) -> tuple[int, int] | None:
    """The position in ``hand`` of the card to play and the colour to name (a Wild), or None.

    ``players``: how many are still in the round; ``next_hand_size``: the cards of
    the player after us; ``weak_colours``: colours the next player could not follow
    lately (we would like to leave them one of those).
    """
    playable = [index for index, card in enumerate(hand) if matches(card, top, colour)]
    if not playable:
        return None
    ordinary = [index for index in playable if KIND[hand[index]] != WILD]
    if not ordinary:
        index = playable[0]
        return index, _colour_to_name(hand, index)
    best_index, best_score = ordinary[0], -math.inf
    for index in ordinary:
        card = hand[index]
        new_colour = COLOUR[card]
        rest = [held for position, held in enumerate(hand) if position != index]
        # Cards we could follow with (a Wild always can, and it is not what we count on).
        follow = sum(1 for held in rest if KIND[held] != WILD and matches(held, card, new_colour))
        score = FOLLOW * follow + SHED * POINTS[card]
        kind = KIND[card]
        if kind in _ACTIONS:
            if players == 2:
                # The opponent loses their turn: a free shed, and we play again.
                score += EXTRA_TURN
            elif kind != REVERSE:
                score += HURT + (HURT_NEAR_WIN if next_hand_size <= 2 else 0)
        if new_colour in weak_colours:
            score += WEAK_COLOUR
        if score > best_score:
            best_index, best_score = index, score
    return best_index, NO_COLOUR


def _colour_to_name(hand: list[int], wild_index: int) -> int:
    """The colour we hold most cards of (then most points), besides the Wild being played."""
    totals = [0.0] * len(COLOURS)
    for position, card in enumerate(hand):
        if position != wild_index and COLOUR[card] >= 0:
            totals[COLOUR[card]] += 1 + POINTS[card] / 100
    return max(range(len(COLOURS)), key=totals.__getitem__)


def _weak_colours(log: list[dict[str, Any]], player: int) -> frozenset[int]:
    """Colours ``player`` had to draw on since they last played a card (they held none then)."""
    weak: set[int] = set()
    colour = NO_COLOUR
    for item in log:
        event = item["event"]
        if event == "start":
            colour = COLOURS.index(item["card"]["colour"])
        elif event == "play":
            colour = COLOURS.index(item["colour"])
            if item["seat"] == player:
                weak.clear()
        elif event in ("draw", "explode") and item["seat"] == player and item.get("reason") == NO_PLAY:
            weak.add(colour)
    return frozenset(weak)


def _next_seat(players: int, seat: int, direction: int, exploded: int) -> int:
    upcoming = (seat + direction) % players
    if upcoming == exploded:
        upcoming = (upcoming + direction) % players
    return upcoming


def basic(game: Game[Any], view: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    shown = view["hand"]
    hand = [card_of_view(card) for card in shown]
    top = card_of_view(view["top"])
    colour = COLOURS.index(view["colour"])
    players: int = view["players"]
    exploded = -1 if view["exploded"] is None else view["exploded"]
    upcoming = _next_seat(players, seat, view["direction"], exploded)
    active = players - (1 if exploded >= 0 else 0)
    choice = choose_card(
        hand,
        top,
        colour,
        active,
        view["hand_sizes"][upcoming],
        _weak_colours(view["log"], upcoming),
    )
    if choice is None:
        can_draw = view["pile_size"] > 0 or len(view["discard"]) > 1
        return {"type": "draw"} if can_draw else {"type": "pass"}
    index, named = choice
    if named == NO_COLOUR:
        return {"type": "play", "card": shown[index]["id"]}
    return {"type": "play_wild", "card": shown[index]["id"], "colour": COLOURS[named]}


def rollout(game: Game[Any], state: KaBlamState, seat: int, rng: random.Random) -> dict[str, Any]:
    hand = list(state.hands[seat])
    exploded = state.exploded
    upcoming = _next_seat(state.players, seat, state.direction, exploded)
    active = state.players - (1 if exploded >= 0 else 0)
    choice = choose_card(hand, state.discard[0], state.colour, active, len(state.hands[upcoming]))
    if choice is None:
        can_draw = bool(state.pile) or len(state.discard) > 1
        return {"type": "draw"} if can_draw else {"type": "pass"}
    index, named = choice
    card_id = state.ids[hand[index]]
    if named == NO_COLOUR:
        return {"type": "play", "card": card_id}
    return {"type": "play_wild", "card": card_id, "colour": COLOURS[named]}


def evaluate(game: Game[Any], state: KaBlamState, seat: int) -> float:
    """A rough chance that ``seat`` finishes first, from scores and this round's hands.

    Each player still in the round is given a chance to win it that falls with
    their hand size, and the points it would bring (the others' hand values); the
    projected scores are then turned into shares of the win, softly, on the scale
    of a round's points.
    """
    players = state.players
    weights = [
        0.0 if player == state.exploded else math.exp(-0.6 * len(state.hands[player]))
        for player in range(players)
    ]
    total_weight = sum(weights) or 1.0
    values = [hand_value(hand) for hand in state.hands]
    all_points = sum(values)
    projected = [
        state.scores[player] + weights[player] / total_weight * (all_points - values[player])
        for player in range(players)
    ]
    if state.length == "short":
        shares = [projected[player] - state.scores[player] for player in range(players)]
        scale = 15.0
    else:
        shares = projected
        scale = max(15.0, state.target / 4)
    top = max(shares)
    strengths = [math.exp((share - top) / scale) for share in shares]
    return strengths[seat] / sum(strengths)
