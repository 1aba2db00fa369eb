"""The engine contract, checked for every registered game (and a toy game as a control).

A game joins by being registered in games/engine/registry.py. Each game is run at
every player count with its default options, and with each other option value once
(one option changed at a time). The checks themselves are in ``conformance/``; the
self-tests at the end show that each kind of check fails on a game that breaks it.

ENGINE_CONFORMANCE_SCALE=10 runs ten times as many playouts and examples.
ENGINE_CONFORMANCE_EXTRA=games.engine.my_game:MyGame runs the suite on a game that
is not registered yet (a comma-separated list of ``module:Class``).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from games.engine import Game, all_games
from games.engine.codec import encode
from games.engine.go_fox import GoFox
from games.engine.ranking import competition_ranks
from games.engine.rng import resume
from tests.engine.conformance import (
    actions,
    codec,
    common,
    determinism,
    facts,
    results,
    reveal,
    schemas,
    views,
)
from tests.engine.conformance.common import BUDGET
from tests.engine.playouts import Config, Playout, checkpoints, configs, extra_games, recorded
from tests.engine.toy_game import ToyHighCard, ToyState

GAMES: list[Game[Any]] = [*all_games(), *extra_games(), ToyHighCard()]
CONFIGS: list[Config] = [config for game in GAMES for config in configs(game)]


def by_slug(game: Game[Any]) -> str:
    return game.slug


def by_id(config: Config) -> str:
    return config.id


every_game = pytest.mark.parametrize("game", GAMES, ids=by_slug)
every_config = pytest.mark.parametrize("config", CONFIGS, ids=by_id)


def checked(config: Config) -> list[tuple[Playout, list[int]]]:
    """The playouts to check, each with the steps where the expensive checks look
    (the start, the end and steps between)."""
    return [
        (playout, checkpoints(playout, BUDGET.checkpoints)) for playout in common.checked_playouts(config)
    ]


def traced(config: Config) -> list[tuple[Playout, list[int]]]:
    """The playouts to check, each with the steps whose encodings are compared byte for
    byte (encoding every step would cost the square of the length: the log grows)."""
    return [
        (playout, checkpoints(playout, BUDGET.trace_points)) for playout in common.checked_playouts(config)
    ]


# -- facts ---------------------------------------------------------------------------


@every_game
def test_game_declares_its_facts(game: Game[Any]) -> None:
    facts.check_declared_facts(game)


def test_registered_slugs_are_unique_and_found_by_get() -> None:
    from games.engine import get

    slugs = [game.slug for game in all_games()]
    assert len(set(slugs)) == len(slugs), slugs
    for game in all_games():
        assert get(game.slug) is game


# -- playouts, determinism, purity ------------------------------------------------------


@every_config
def test_random_playouts_end(config: Config) -> None:
    determinism.check_playouts_end(config)


@every_config
def test_same_seed_and_actions_give_byte_identical_states(config: Config) -> None:
    for playout, points in traced(config):
        determinism.check_replay_is_deterministic(playout, points)


@pytest.mark.slow
@every_game
def test_a_fresh_process_replays_to_the_same_states(game: Game[Any]) -> None:
    # The fewest and the most players with default options: hash-seed effects show in any game.
    defaults = [config for config in configs(game) if not config.options]
    ends = [defaults[0], defaults[-1]] if len(defaults) > 1 else defaults
    playouts = [playout for config in ends for playout in common.checked_playouts(config)]
    determinism.check_replay_in_fresh_processes(game, playouts, BUDGET.checkpoints)


@every_config
def test_apply_leaves_its_input_unchanged(config: Config) -> None:
    for playout, points in traced(config):
        determinism.check_apply_leaves_its_input_unchanged(playout, points)


@every_config
def test_readers_leave_the_state_unchanged(config: Config) -> None:
    for playout, steps in checked(config):
        determinism.check_readers_leave_the_state_unchanged(playout, steps)


# -- actions ---------------------------------------------------------------------------


@every_config
def test_every_legal_action_applies_and_other_seats_are_refused(config: Config) -> None:
    for playout, steps in checked(config):
        actions.check_legal_actions_apply(playout, steps)


@every_game
def test_junk_actions_raise_illegal_action_and_change_nothing(game: Game[Any]) -> None:
    actions.check_junk_actions(game, common.state_pool(game, 6), BUDGET.junk_actions)


@every_game
def test_near_misses_of_legal_actions_are_refused(game: Game[Any]) -> None:
    actions.check_mutated_legal_actions(game, common.state_pool(game, 6), BUDGET.near_miss_actions_per_seat)


@every_game
def test_new_refuses_bad_player_counts_seeds_and_options(game: Game[Any]) -> None:
    actions.check_new_refuses_junk(game, BUDGET.junk_new)


@every_game
def test_every_player_count_accepts_the_default_options(game: Game[Any]) -> None:
    for players in range(game.min_players, game.max_players + 1):
        game.new(players, 12345)
        game.new(players, 12345, {option.name: option.default for option in game.options})


@every_game
def test_every_declared_option_value_is_accepted_at_some_player_count(game: Game[Any]) -> None:
    for config in configs(game):
        config.new(0)  # configs() picked a player count that accepts it, if there is one


# -- codec, results --------------------------------------------------------------------


@every_config
def test_encode_decode_round_trips_and_play_goes_on_from_it(config: Config) -> None:
    for playout, points in traced(config):
        codec.check_round_trips(playout, points)


@every_game
def test_decode_of_junk_raises_value_error(game: Game[Any]) -> None:
    codec.check_decode_refuses_junk(game, common.state_pool(game, 3), BUDGET.junk_decodes)


@every_config
def test_result_is_none_until_the_end_then_valid_ranks(config: Config) -> None:
    for playout in common.ending_playouts(config):
        results.check_result(playout)


@every_config
def test_ranks_favour_the_same_scores_in_every_playout(config: Config) -> None:
    agreeing = {"higher", "lower"}
    for playout in common.ending_playouts(config):
        agreeing &= results.check_result(playout)
    assert agreeing, f"{config.id} ranks higher scores first in some playouts and lower in others"


# -- views, sampling, leaks --------------------------------------------------------------


@every_config
def test_views_are_json_ready_for_every_seat_and_spectators(config: Config) -> None:
    for playout, steps in checked(config):
        views.check_views(playout, steps)


@every_config
def test_views_and_legal_actions_ignore_the_generator_state(config: Config) -> None:
    for playout, steps in checked(config):
        views.check_views_ignore_the_generator_state(playout, steps)


@every_config
def test_view_of_a_sampled_state_is_the_view_it_was_sampled_from(config: Config) -> None:
    for playout, steps in checked(config):
        views.check_sampled_views_match(playout, steps, BUDGET.samples)


@every_config
def test_sampled_states_agree_with_everything_the_viewer_knows(config: Config) -> None:
    for playout, steps in checked(config):
        views.check_sampled_states_agree_on_what_the_viewer_knows(playout, steps, BUDGET.samples)


@every_config
def test_play_goes_on_from_sampled_states(config: Config) -> None:
    for playout, steps in checked(config):
        views.check_play_goes_on_from_sampled_states(playout, steps)


@every_config
def test_views_and_legal_actions_match_the_published_schemas(config: Config) -> None:
    for playout, steps in checked(config):
        schemas.check_views_and_actions_match_schemas(playout, steps)


@every_config
def test_sample_re_deals_what_the_viewer_cannot_know(config: Config) -> None:
    views.check_sample_re_deals(common.main_playout(config), BUDGET.re_deal_samples)


# -- everything revealed (the replays of finished matches) ----------------------------------


@every_config
def test_reveal_is_json_ready_repeatable_and_pure(config: Config) -> None:
    for playout, steps in checked(config):
        reveal.check_reveal_is_json_ready_and_pure(playout, steps)


@every_config
def test_reveal_contains_every_seats_view(config: Config) -> None:
    for playout, steps in checked(config):
        reveal.check_reveal_contains_every_view(playout, steps)


@every_config
def test_reveal_leaves_no_hidden_value_null(config: Config) -> None:
    for playout, steps in checked(config):
        reveal.check_reveal_fills_hidden_values(playout, steps)


def test_every_registered_game_says_what_its_reveal_must_show() -> None:
    missing = [game.slug for game in all_games() if game.slug not in reveal.HIDDEN_VALUES]
    assert not missing, f"add these games to HIDDEN_VALUES in tests/engine/conformance/reveal.py: {missing}"


# -- the suite itself: each kind of check fails on a game that breaks it -------------------


class ShowsTheDeck(ToyHighCard):
    """Leaks the deck and every card's value to everyone, and samples the truth back from it."""

    def view(self, state: ToyState, seat: int | None) -> dict[str, Any]:
        shown = super().view(state, seat)
        shown["secret"] = {"deck": list(state.deck), "values": [list(pair) for pair in state.values]}
        return shown

    def sample(self, view: dict[str, Any], seat: int | None, rng: random.Random) -> ToyState:
        honest = super().sample(view, seat, rng)
        return replace(
            honest,
            deck=tuple(view["secret"]["deck"]),
            values=tuple((card, value) for card, value in view["secret"]["values"]),
        )


class ShowsTheGenerator(ToyHighCard):
    def view(self, state: ToyState, seat: int | None) -> dict[str, Any]:
        return {**super().view(state, seat), "shuffle": encode(state.rng)}


class ShowsTheNextDrawAndSamplesToMatch(ToyHighCard):
    """Shows whether the next shuffle-decided draw is odd (from the generator state),
    and samples a generator state that agrees: the sampling checks cannot see it."""

    def view(self, state: ToyState, seat: int | None) -> dict[str, Any]:
        return {**super().view(state, seat), "next_is_odd": resume(state.rng).below(2)}

    def sample(self, view: dict[str, Any], seat: int | None, rng: random.Random) -> ToyState:
        sampled = super().sample(view, seat, rng)
        while resume(sampled.rng).below(2) != view["next_is_odd"]:
            sampled = replace(sampled, rng=rng.getrandbits(64))
        return sampled


class CrashesOnCardsNotInHand(ToyHighCard):
    def play(self, state: ToyState, seat: int, kind: str, fields: dict[str, Any]) -> ToyState:
        if kind == "play":
            state.hands[seat].index(fields["card"])  # a plain ValueError for a card not in the hand
        return super().play(state, seat, kind, fields)


class OrdersBySetIteration(ToyHighCard):
    """Lists plays in set order, which depends on PYTHONHASHSEED."""

    def legal_actions(self, state: ToyState, seat: int) -> list[dict[str, Any]]:
        legal = super().legal_actions(state, seat)
        cards = {action["card"] for action in legal if action["type"] == "play"}
        others = [action for action in legal if action["type"] != "play"]
        return [{"type": "play", "card": card} for card in cards] + others


class SamplerIgnoresOwnHand(ToyHighCard):
    """Forgets which cards the viewer holds, so the sampled view differs."""

    def sample(self, view: dict[str, Any], seat: int | None, rng: random.Random) -> ToyState:
        blind = {**view, "hands": [[{**card, "value": None} for card in hand] for hand in view["hands"]]}
        return super().sample(blind, seat, rng)


class LegalActionsInDeckOrder(ToyHighCard):
    """Reverses the viewer's plays when the hidden top card of the deck is odd: a leak
    through legal_actions that no view shows."""

    def legal_actions(self, state: ToyState, seat: int) -> list[dict[str, Any]]:
        legal = super().legal_actions(state, seat)
        if state.deck and dict(state.values)[state.deck[0]] % 2:
            legal.reverse()
        return legal


class RanksFlipWithTheDeal(ToyHighCard):
    """Ranks the highest score first or last depending on the deal."""

    def result(self, state: ToyState) -> dict[str, Any] | None:
        result = super().result(state)
        if result is not None and state.values[0][1] % 2:
            result["ranks"] = competition_ranks(result["scores"], higher_is_better=False)
        return result


class RevealHidesTheDeck(ToyHighCard):
    """Shows the deck's ids but not its cards: no view has the deck, so only the
    hidden-values check can tell."""

    def reveal(self, state: ToyState) -> dict[str, Any]:
        shown = super().reveal(state)
        shown["deck"] = [{**card, "value": None} for card in shown["deck"]]
        return shown


class RevealHidesAHand(ToyHighCard):
    """Shows the hands as a spectator sees them (face down), though each seat sees its own."""

    def reveal(self, state: ToyState) -> dict[str, Any]:
        return {**super().reveal(state), "hands": self.view(state, None)["hands"]}


class RevealLogIsPublic(ToyHighCard):
    """Logs only what everyone saw: the drawers' private texts and values are lost."""

    def reveal(self, state: ToyState) -> dict[str, Any]:
        return {**super().reveal(state), "log": self.view(state, None)["log"]}


class RevealShowsTheGenerator(ToyHighCard):
    def reveal(self, state: ToyState) -> dict[str, Any]:
        return {**super().reveal(state), "shuffle": encode(state.rng)}


class RevealIsKeptAndShared(ToyHighCard):
    """Hands out the same dict on every call (a cache without copies)."""

    def reveal(self, state: ToyState) -> dict[str, Any]:
        kept: dict[int, dict[str, Any]] = self.__dict__.setdefault("kept", {})
        return kept.setdefault(id(state), super().reveal(state))


def _toy_config(game: ToyHighCard, players: int = 3) -> Config:
    return Config(game, players)


def test_suite_passes_the_toy_game_as_written() -> None:
    playout = recorded(_toy_config(ToyHighCard()), 0)
    views.check_sample_re_deals(playout, 8)
    views.check_sampled_views_match(playout, [0, 5, len(playout.moves)], 2)


class GoFoxWithAnUndocumentedKey(GoFox):
    """Adds a key its published schema does not name."""

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        return {**super().view(state, seat), "mood": "cheerful"}


def test_suite_catches_a_view_that_its_schema_does_not_describe() -> None:
    playout = recorded(Config(GoFox(), 2), 0)
    schemas.check_views_and_actions_match_schemas(playout, [0])  # the game as written passes
    changed = recorded(Config(GoFoxWithAnUndocumentedKey(), 2), 0)
    with pytest.raises(AssertionError, match="does not match the published schema"):
        schemas.check_views_and_actions_match_schemas(changed, [0])


def test_suite_catches_a_view_that_leaks_hidden_cards() -> None:
    playout = recorded(_toy_config(ShowsTheDeck()), 0)
    views.check_sampled_views_match(playout, [0, 3], 2)  # the sampler hides the leak from this check...
    with pytest.raises(AssertionError, match="rebuilt the true state"):
        views.check_sample_re_deals(playout, 8)  # ...but not from this one


def test_suite_catches_a_view_that_shows_the_generator_state() -> None:
    playout = recorded(_toy_config(ShowsTheGenerator()), 0)
    with pytest.raises(AssertionError, match="generator state"):
        views.check_views(playout, [0])


def test_suite_catches_a_view_that_shows_what_the_generator_will_draw() -> None:
    playout = recorded(_toy_config(ShowsTheNextDrawAndSamplesToMatch()), 0)
    steps = [0, 3, 6]
    views.check_sampled_views_match(playout, steps, 2)  # the matching sampler hides it here...
    views.check_views(playout, steps)  # ...the generator state itself is not shown...
    with pytest.raises(AssertionError, match="changes with the generator state"):
        views.check_views_ignore_the_generator_state(playout, steps)  # ...but it changes the view


def test_suite_catches_apply_raising_something_other_than_illegal_action() -> None:
    game = CrashesOnCardsNotInHand()
    with pytest.raises(ValueError) as caught:
        actions.check_mutated_legal_actions(game, common.state_pool(game, 6), 4)
    assert type(caught.value) is ValueError  # not an IllegalAction, which is a ValueError too


@pytest.mark.slow
def test_suite_catches_order_that_depends_on_the_hash_seed() -> None:
    game = OrdersBySetIteration()
    playouts = [recorded(_toy_config(game, players), 0) for players in (2, 3, 4)]
    with pytest.raises(AssertionError, match="fresh process"):
        determinism.check_replay_in_fresh_processes(game, playouts, BUDGET.checkpoints)


def test_suite_catches_a_sampler_that_disagrees_with_the_view() -> None:
    playout = recorded(_toy_config(SamplerIgnoresOwnHand()), 0)
    with pytest.raises(AssertionError, match="view of a sampled state differs"):
        views.check_sampled_views_match(playout, [0], 1)


def test_suite_catches_legal_actions_that_depend_on_hidden_facts() -> None:
    playout = recorded(_toy_config(LegalActionsInDeckOrder()), 0)
    steps = list(range(len(playout.states)))
    with pytest.raises(AssertionError, match="legal actions differ"):
        views.check_sampled_states_agree_on_what_the_viewer_knows(playout, steps, 2)


def test_suite_catches_ranks_that_flip_between_playouts() -> None:
    game = RanksFlipWithTheDeal()
    agreeing = {"higher", "lower"}
    for seed in range(6):
        agreeing &= results.check_result(recorded(_toy_config(game), seed))
    assert not agreeing


def test_suite_passes_the_toy_games_reveal_as_written() -> None:
    playout = recorded(_toy_config(ToyHighCard()), 0)
    steps = list(range(len(playout.states)))
    reveal.check_reveal_is_json_ready_and_pure(playout, steps)
    reveal.check_reveal_contains_every_view(playout, steps)
    reveal.check_reveal_fills_hidden_values(playout, steps)


def test_suite_catches_a_reveal_that_hides_what_no_seat_knows() -> None:
    playout = recorded(_toy_config(RevealHidesTheDeck()), 0)
    steps = list(range(len(playout.states)))
    reveal.check_reveal_contains_every_view(playout, steps)  # no view shows the deck...
    with pytest.raises(AssertionError, match=r"deck\[0\]\['value'\] is null"):
        reveal.check_reveal_fills_hidden_values(playout, steps)  # ...but the deck is hidden there


def test_suite_catches_a_reveal_that_hides_what_a_seat_knows() -> None:
    playout = recorded(_toy_config(RevealHidesAHand()), 0)
    with pytest.raises(AssertionError, match=r"view\(0\) knows something the reveal does not.*'value'"):
        reveal.check_reveal_contains_every_view(playout, [0])


def test_suite_catches_a_reveal_that_drops_private_log_facts() -> None:
    playout = recorded(_toy_config(RevealLogIsPublic()), 0)
    drawn = next(step for step, (_, action) in enumerate(playout.moves) if action["type"] == "draw") + 1
    reveal.check_reveal_fills_hidden_values(playout, [drawn])  # hands and deck are all there...
    with pytest.raises(AssertionError, match=r"knows something the reveal does not: view\['log'\]"):
        reveal.check_reveal_contains_every_view(playout, [drawn])  # ...but not what the drawer read


def test_suite_catches_a_reveal_that_shows_the_generator_state() -> None:
    playout = recorded(_toy_config(RevealShowsTheGenerator()), 0)
    with pytest.raises(AssertionError, match="generator state"):
        reveal.check_reveal_is_json_ready_and_pure(playout, [0])


def test_suite_catches_a_reveal_that_shares_what_it_returns() -> None:
    playout = recorded(_toy_config(RevealIsKeptAndShared()), 0)
    with pytest.raises(AssertionError, match="shares what it returned"):
        reveal.check_reveal_is_json_ready_and_pure(playout, [0])
