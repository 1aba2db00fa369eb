"""The arithmetic of ratings, pure (no Django): which finished matches are rated, which
seats move a rating, the update, the number shown and when it is provisional.

The live path (``services.match_rate``) and the replay (``services.ratings_rebuild``)
both go through these functions with the same inputs in the same order (seats by
index), so they arrive at the same floating-point numbers, bit for bit.

**The model** (**Decision**): OpenSkill's ``BradleyTerryFull``, not its
``PlackettLuce``. In openskill 6.2, PlackettLuce gets shared places wrong at tables of
three or more: with ranks ``[1, 1, 3, 4]`` (a Go Fox! result) the third gains as much
as the two who shared first, and with ``[1, 1, 3, 4, 5]`` more (upstream issues
vivekjoshy/openskill.py#155 and #201, fixes still open). Shared places are common
here (about three random four-player Go Fox! or Ka-Blam! games in four have one).
BradleyTerryFull rates a table as every pair's result (a shared place is a draw
between the two), never ranks a worse place above a better one, does not depend on
seat order, and for two seats gives PlackettLuce's numbers (to within 1e-14). Its
price: larger steps at big tables (a six-seat win from the start moves mu by +13,
against PlackettLuce's +2.5), so multi-seat ratings settle faster and swing more. The model's defaults are kept:
mu 25, sigma 25/3, beta 25/6, tau 25/300.

**The number shown** (**Decision**, ``display``): ``1500 + 28 * (mu - 25)``, rounded,
never below 100: the scale chess players know. A new player shows 1500, a win moves
the number up and a loss down (the old number, the conservative estimate mu - 3 sigma
times 40, started everyone at 0 and went negative after a loss). The scale, 28 points
per unit of mu, makes 100 points mean what 100 Elo points mean: the higher of two
settled players (sigma 1.56 at two seats, about 1.05 at six) wins 63.8% (64.3%) of
their two-seat games by the model's own likelihood, logistic((mu_a - mu_b) / c) with
c = sqrt(2 beta² + sigma_a² + sigma_b²), which is what ``MODEL.rate`` fits; Elo says
64.0%. A simulation of players of known strength confirms the figure (the test
``test_100_points_apart_the_higher_wins_about_64_percent``). OpenSkill's
``predict_win`` says 71.6% for the same pair: it uses a normal curve where the update
uses a logistic one, and in that simulation it overstated every favourite's chances.
At 28 a first two-seat result moves the number by 74, a six-seat win from the start
by 369: large, as the model's first steps are, and marked provisional.

**Provisional** (**Decision**, ``is_provisional``): "?" after the number ("1500?")
until the player has ``PROVISIONAL_BELOW`` (10) rated matches in the game, a count, not
a threshold on sigma. A player can see a count coming ("4 of 10 rated matches") and
two players with the same number of matches are both marked or both not; sigma after
10 matches depends on the table sizes and on how settled the opponents were, so a
threshold on it would lift the mark at a moment nobody could predict.

**The leaderboard's order** (``selectors.leaderboard``): established players first,
then provisional ones, each by the number shown (mu). The mark and the order agree: a
player with one lucky win shows "1574?" and sits below every established player, and a
table read top to bottom is in the order of its numbers. Within the established, the
shown number and not the conservative estimate: after ten matches sigma is still 5 to
6.5 (two seats) against 1.5 for a veteran, so by mu - 3 sigma a newly established 1800
would sit below a veteran's 1550, which no reader of the table would understand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from openskill.models import BradleyTerryFull

MODEL = BradleyTerryFull()
START_MU: float = MODEL.mu
START_SIGMA: float = MODEL.sigma

# A rating is provisional (shown with a "?", and listed below the established on the
# leaderboard) until its player has this many rated matches in that game.
PROVISIONAL_BELOW = 10
# The number shown: DISPLAY_START + DISPLAY_SCALE * (mu - START_MU), rounded, at least
# DISPLAY_FLOOR (the module's docstring says why these numbers).
DISPLAY_START = 1500
DISPLAY_SCALE = 28
DISPLAY_FLOOR = 100


class Unrated(StrEnum):
    """Why a finished match moves no rating (the first that applies)."""

    NOT_RATED_GAME = "the game is not rated"  # cooperative, or declared unrated
    NOT_RATED_MATCH = "the match was set up unrated"  # an unrated tournament's table
    SOLITAIRE = "a solitaire match"
    INCOMPLETE = "a seat has no player or no rank"
    ONE_PLAYER = "one account in every seat"
    EARLY_RESIGNATION = "a player resigned before making a move of their own"
    # **Decision** (issue 35): a program's bot account is rated in no pool. Its strength
    # is whatever its author's code does this week, so a number would tell nobody
    # anything, and the people it plays keep theirs clean of it (the house bots are
    # rated: they play the same way, always). docs/api.md, "Bot accounts".
    BOT_ACCOUNT = "a program's bot account played"


@dataclass(frozen=True)
class SeatResult:
    """One seat of a finished match, as rating reads it."""

    index: int
    user_id: int | None
    rank: int | None
    # Out of the game (resigned, or forfeited on time) ...
    resigned: bool
    # ... and whether its player made a move of their own before that (not the autopilot's).
    moved: bool
    # Its player is a program's bot account (``User.bot_account_since``).
    bot_account: bool = False


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        return conservative(self.mu, self.sigma)


START = Skill(START_MU, START_SIGMA)


def conservative(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def display(mu: float) -> int:
    """The rating people see: 1500 for a new player, 28 points per unit of mu, never
    below 100. Rising with mu, so ordering by mu orders by the number shown."""
    return max(DISPLAY_FLOOR, round(DISPLAY_START + DISPLAY_SCALE * (mu - START_MU)))


def is_provisional(rated_matches: int) -> bool:
    """Shown with a "?": fewer than ``PROVISIONAL_BELOW`` rated matches in the game."""
    return rated_matches < PROVISIONAL_BELOW


def shown(display: int, *, provisional: bool) -> str:
    """A rating in plain text: "1500?" while provisional, "1612" after. (Pages mark the
    "?" up for screen readers: ``templates/ratings/_rating.html``.)"""
    return f"{display}?" if provisional else str(display)


def signed(change: int) -> str:
    """A change of the number shown: "+12"; a fall with a minus sign (U+2212), not a
    hyphen; "±0" for none."""
    if change > 0:
        return f"+{change}"
    return f"\u2212{-change}" if change < 0 else "\u00b10"


def why_unrated(
    *, game_is_rated: bool, seats: Sequence[SeatResult], match_is_rated: bool = True
) -> Unrated | None:
    """None when this finished match moves ratings; otherwise the reason it does not.

    Rated: a game that is rated (never a cooperative one), a match not set up unrated
    (``Match.rated``: an unrated tournament's tables), two seats or more, every seat
    with a player and a rank, two accounts at least, and nobody out of the game before
    their first move of their own: a player who resigns or times out without ever
    moving makes the match unrated for everyone (a walk-over is no result; and
    resigning at once must not be a way to hand a friend points)."""
    if not game_is_rated:
        return Unrated.NOT_RATED_GAME
    if not match_is_rated:
        return Unrated.NOT_RATED_MATCH
    if len(seats) < 2:
        return Unrated.SOLITAIRE
    if any(seat.user_id is None or seat.rank is None for seat in seats):
        return Unrated.INCOMPLETE
    if len({seat.user_id for seat in seats}) < 2:
        return Unrated.ONE_PLAYER
    if any(seat.resigned and not seat.moved for seat in seats):
        return Unrated.EARLY_RESIGNATION
    if any(seat.bot_account for seat in seats):
        return Unrated.BOT_ACCOUNT
    return None


def rated_seats(seats: Sequence[SeatResult]) -> list[SeatResult]:
    """The seat that moves each account's rating: its first, by index.

    A bot account may sit more than once at a table ("Basic Bot A", "Basic Bot B";
    people sit once). **Decision**: every seat plays its part in the update, so each
    person is rated against everyone at the table, each bot seat with the bot's rating;
    but the bot's own rating moves once per match, by its first seat's result. The
    first seat, not the best placed: a choice that does not look at the outcome neither
    flatters nor punishes the bot."""
    first: dict[int | None, SeatResult] = {}
    for seat in sorted(seats, key=lambda seat: seat.index):
        first.setdefault(seat.user_id, seat)
    return list(first.values())


def rate(seats: Sequence[SeatResult], before: Mapping[int, Skill]) -> dict[int, Skill]:
    """Each account's new skill after this match (a rated one: ``why_unrated`` is None),
    from ``before``, its skill going in. Seats in index order, ranks as they are: a
    shared rank is a tie."""
    ordered = sorted(seats, key=lambda seat: seat.index)
    teams = [[MODEL.rating(mu=before[player(seat)].mu, sigma=before[player(seat)].sigma)] for seat in ordered]
    ranks = [float(place(seat)) for seat in ordered]
    updated = MODEL.rate(teams, ranks=ranks)
    after: dict[int, Skill] = {}
    for seat in rated_seats(ordered):
        rating = updated[ordered.index(seat)][0]
        after[player(seat)] = Skill(rating.mu, rating.sigma)
    return after


def player(seat: SeatResult) -> int:
    """The seat's account (a rated match has one in every seat)."""
    if seat.user_id is None:
        raise ValueError(f"seat {seat.index} has no player: the match is not rated")
    return seat.user_id


def place(seat: SeatResult) -> int:
    """The seat's rank (a rated match has one for every seat)."""
    if seat.rank is None:
        raise ValueError(f"seat {seat.index} has no rank: the match is not rated")
    return seat.rank
