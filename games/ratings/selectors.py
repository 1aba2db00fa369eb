"""Reads of ratings, for pages and for other features (profiles, history, tournaments'
seeding): ``rating_of``, ``ratings_of``, ``rating_history``, ``latest_rating_points``,
``match_rating_changes``, ``conservative_ratings``, ``leaderboard``; and the one read
both rating paths share, ``seat_results`` (what a finished match's seats did). Other features read ratings here
only: ``games.ratings.models`` is protected (pyproject.toml, lint-imports).

Every number shown is ``rules.display`` (1500 for a new player), with "?" while
``rules.is_provisional``; the raw mu and sigma come along for programs.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Case, Count, F, OuterRef, Q, Subquery, Value, When, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from accounts.models import User
from games.engine import Game, IllegalAction, get
from games.errors import ErrorCode, MatchError
from games.models import Move, Seat
from games.ratings import rules
from games.ratings.models import Rating, RatingChange

# A rating is provisional (shown with a "?") before this many rated matches: the pages
# say so in words. Re-exported for other features, which read ratings through this module.
PROVISIONAL_BELOW = rules.PROVISIONAL_BELOW
# The leaderboard lists players with a rated match of the game finished within
# ACTIVE_DAYS, established ones first, at most LEADERBOARD_SIZE.
ACTIVE_DAYS = 30
LEADERBOARD_SIZE = 100
# Matches read per query when many are read at once (SQLite caps a query's parameters).
CHUNK = 500


@dataclass(frozen=True)
class PlayerRating:
    game_slug: str
    game_name: str
    mu: float
    sigma: float
    rated_matches: int
    last_rated_at: datetime | None

    @property
    def display(self) -> int:
        return rules.display(self.mu)

    @property
    def is_provisional(self) -> bool:
        return rules.is_provisional(self.rated_matches)

    @property
    def shown(self) -> str:
        """The number as written in plain text: "1500?" while provisional, "1612" after."""
        return rules.shown(self.display, provisional=self.is_provisional)


@dataclass(frozen=True)
class RatingPoint:
    """One rated match in a player's history of one game."""

    match_id: int
    finished_at: datetime
    rank: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    # How many rated matches the player had in this game after this one.
    rated_matches: int

    @property
    def display_before(self) -> int:
        return rules.display(self.mu_before)

    @property
    def display_after(self) -> int:
        return rules.display(self.mu_after)

    @property
    def change(self) -> int:
        """What the match did to the number shown (+12, -9): the two shown numbers'
        difference, so it adds up with what the player saw before and after."""
        return self.display_after - self.display_before

    @property
    def is_provisional(self) -> bool:
        """Provisional after this match (``rated_matches`` counts it)."""
        return rules.is_provisional(self.rated_matches)


@dataclass(frozen=True)
class MatchRatingChange:
    """What one rated match did to one player's rating (``point``), for its page."""

    user: User
    seat: int  # the seat whose result moved it (a bot seated twice: its first)
    point: RatingPoint


@dataclass(frozen=True)
class LeaderboardRow:
    place: int
    user: User
    rating: PlayerRating

    @property
    def is_bot(self) -> bool:
        return bool(self.user.is_bot)


def rated_game(game_slug: str) -> Game[Any]:
    """The engine of a game that has ratings; ``MatchError`` ``no_such_game`` otherwise
    (an unknown game, or one that is never rated, such as a cooperative game)."""
    try:
        game = get(game_slug)
    except IllegalAction:
        raise MatchError(ErrorCode.NO_SUCH_GAME, f"There is no game {game_slug!r}.") from None
    if not game.is_rated:
        why = ": its players win or lose together" if game.is_cooperative else ""
        raise MatchError(ErrorCode.NO_SUCH_GAME, f"{game.name} is not rated{why}.")
    return game


def rating_of(user: User, game_slug: str) -> PlayerRating | None:
    """``user``'s rating in a game, or None before their first rated match in it."""
    game = rated_game(game_slug)
    rating = Rating.objects.filter(user=user, game=game.slug, rated_matches__gt=0).first()
    return None if rating is None else _player_rating(rating)


def ratings_of(user: User) -> list[PlayerRating]:
    """Every rating ``user`` has, by game name."""
    ratings = [_player_rating(rating) for rating in Rating.objects.filter(user=user, rated_matches__gt=0)]
    return sorted(ratings, key=lambda rating: rating.game_name)


def rating_point(change: RatingChange, rated_matches: int) -> RatingPoint:
    """One rated match of a player's history: ``rated_matches`` is how many they had after it."""
    return RatingPoint(
        match_id=change.match_id,
        finished_at=change.finished_at,
        rank=change.rank,
        mu_before=change.mu_before,
        sigma_before=change.sigma_before,
        mu_after=change.mu_after,
        sigma_after=change.sigma_after,
        rated_matches=rated_matches,
    )


def rating_history(user: User, game_slug: str) -> list[RatingPoint]:
    """``user``'s rated matches in a game, oldest first, with the rating before and after each."""
    game = rated_game(game_slug)
    changes = RatingChange.objects.filter(user=user, game=game.slug).order_by("finished_at", "match_id")
    return [rating_point(change, count) for count, change in enumerate(changes, start=1)]


def latest_rating_points(
    user: User, game_slugs: Iterable[str], *, limit: int
) -> dict[str, list[RatingPoint]]:
    """The latest ``limit`` rated matches of ``user`` in each of ``game_slugs``, oldest
    first, in one query (``rating_history`` per game would read each whole history)."""
    slugs = list(game_slugs)
    changes = (
        RatingChange.objects.filter(user=user, game__in=slugs)
        .annotate(
            from_latest=Window(
                RowNumber(),
                partition_by=[F("game")],
                order_by=[F("finished_at").desc(), F("match_id").desc()],
            ),
            in_game=Window(Count("pk"), partition_by=[F("game")]),
        )
        .filter(from_latest__lte=limit)
        .order_by("game", "finished_at", "match_id")
    )
    points: dict[str, list[RatingPoint]] = {slug: [] for slug in slugs}
    for change in changes:
        # Counted from the newest: how many rated matches the player had after this one.
        points[change.game].append(rating_point(change, change.in_game - change.from_latest + 1))
    return points


def match_rating_changes(match_ids: list[int]) -> dict[int, list[MatchRatingChange]]:
    """What each rated match among ``match_ids`` did to each player's rating, by seat,
    each with how many rated matches the player had after it (for the "?"): one query
    whatever their number. A match not rated, or not yet (the rating task runs just
    after the match finishes), is left out."""
    up_to_this_one = Q(finished_at__lt=OuterRef("finished_at")) | Q(
        finished_at=OuterRef("finished_at"), match_id__lte=OuterRef("match_id")
    )
    counted = (
        RatingChange.objects.filter(up_to_this_one, user=OuterRef("user"), game=OuterRef("game"))
        .order_by()
        .values("user")
        .annotate(count=Count("pk"))
        .values("count")
    )
    changes = (
        RatingChange.objects.filter(match_id__in=match_ids)
        .select_related("user")
        .annotate(rated_matches=Subquery(counted))
        .order_by("match_id", "seat")
    )
    by_match: dict[int, list[MatchRatingChange]] = {}
    for change in changes:
        by_match.setdefault(change.match_id, []).append(
            MatchRatingChange(
                user=change.user, seat=change.seat, point=rating_point(change, change.rated_matches)
            )
        )
    return by_match


def conservative_ratings(game_slug: str, user_ids: list[int]) -> dict[int, float]:
    """Each rated player's conservative rating in the game (mu - 3 sigma: low while
    little is known), by user id; players without a rated match there are left out
    (tournament seeding)."""
    rows = Rating.objects.filter(game=game_slug, user_id__in=user_ids, rated_matches__gt=0)
    return dict(rows.values_list("user_id", "conservative"))


def leaderboard(game_slug: str, *, now: datetime | None = None) -> list[LeaderboardRow]:
    """The active players of a game (a rated match in the last ``ACTIVE_DAYS``), bots
    included, at most ``LEADERBOARD_SIZE``: the established first, then the provisional
    while there is room, each group by the rating shown (mu, of which it is a rising
    function; ties: the conservative estimate, more rated matches, longer on the site).
    Why this order: ``rules``' docstring."""
    game = rated_game(game_slug)
    active_since = (now or timezone.now()) - timedelta(days=ACTIVE_DAYS)
    provisional = Case(When(rated_matches__lt=rules.PROVISIONAL_BELOW, then=Value(1)), default=Value(0))
    ratings = (
        Rating.objects.filter(game=game.slug, rated_matches__gt=0, last_rated_at__gte=active_since)
        .select_related("user")
        .order_by(provisional, "-mu", "-conservative", "-rated_matches", "user_id")[:LEADERBOARD_SIZE]
    )
    return [
        LeaderboardRow(place=place, user=rating.user, rating=_player_rating(rating))
        for place, rating in enumerate(ratings, start=1)
    ]


def seat_results(match_ids: Iterable[int]) -> dict[int, list[rules.SeatResult]]:
    """What each seat of these matches did, as rating reads it (seats by index): a few
    queries per ``CHUNK`` matches, whether rating one match or replaying them all."""
    ids = list(match_ids)
    tables: dict[int, list[rules.SeatResult]] = {}
    for start in range(0, len(ids), CHUNK):
        tables.update(_seat_results(ids[start : start + CHUNK]))
    return tables


def _seat_results(match_ids: list[int]) -> dict[int, list[rules.SeatResult]]:
    seats = list(
        Seat.objects.filter(match_id__in=match_ids)
        .order_by("match_id", "index")
        .values_list("match_id", "index", "user_id", "rank", "resigned_at", "user__bot_account_since")
    )
    # A move of a player's own is one they sent themselves: the autopilot's moves for
    # a seat whose clock ran out carry no user. Read only where someone is out of the game.
    resigned = sorted({match_id for match_id, _, _, _, resigned_at, _ in seats if resigned_at is not None})
    own_moves = set(
        Move.objects.filter(match_id__in=resigned, user__isnull=False)
        .order_by()
        .values_list("match_id", "seat", "user_id")
        .distinct()
    )
    tables: dict[int, list[rules.SeatResult]] = defaultdict(list)
    for match_id, index, user_id, rank, resigned_at, bot_account_since in seats:
        tables[match_id].append(
            rules.SeatResult(
                index=index,
                user_id=user_id,
                rank=rank,
                resigned=resigned_at is not None,
                moved=(match_id, index, user_id) in own_moves,
                bot_account=bot_account_since is not None,
            )
        )
    return dict(tables)


def bot_account_refusal(user: User) -> str | None:
    """Why ``user`` may not become a bot account for a program (settings
    ``BOT_ACCOUNT_REFUSALS``): rated matches played.

    **Decision**: only an account with no rated match. A bot account is rated nowhere, so
    its ratings would have to be dropped (taking points back from everyone it played) or
    kept beside a bot's name (a person's record on a program's account); a program gets
    a fresh account instead."""
    played = RatingChange.objects.filter(user=user).count()
    if played:
        return (
            f"This account has played {played} rated match{'es' if played != 1 else ''}: a bot account "
            "starts with none. Make a new account for your program."
        )
    return None


def later_rated_matches(game_slug: str, finished_at: datetime, match_id: int) -> list[int]:
    """The matches of a game already rated that finished after (``finished_at``,
    ``match_id``), latest first: what must be taken back to apply an earlier one in order."""
    later = Q(finished_at__gt=finished_at) | Q(finished_at=finished_at, match_id__gt=match_id)
    rows = (
        RatingChange.objects.filter(later, game=game_slug)
        .order_by("-finished_at", "-match_id")
        .values_list("match_id", flat=True)
    )
    return list(dict.fromkeys(rows))  # one per match, in order


def _player_rating(rating: Rating) -> PlayerRating:
    return PlayerRating(
        game_slug=rating.game,
        game_name=_game_name(rating.game),
        mu=rating.mu,
        sigma=rating.sigma,
        rated_matches=rating.rated_matches,
        last_rated_at=rating.last_rated_at,
    )


def _game_name(slug: str) -> str:
    try:
        return str(get(slug).name)
    except IllegalAction:  # a game taken off the site keeps its players' ratings
        return slug
