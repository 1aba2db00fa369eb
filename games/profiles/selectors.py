"""Reads of the profile page: ``player_profile`` gathers them.

Each read is a fixed number of queries however many matches the player has finished
(a bot's profile may sum tens of thousands): the numbers are aggregated by the
database, and only the rows shown (the chart's points, the recent matches) come back.

What counts (docs/site.md, "Profiles"):

- A player's record in a game counts **every** finished match of theirs, private ones
  too: the numbers are not secret, only the matches are; the recent-matches list shows
  the viewer only what History would (``games.history.selectors.history_page``).
- A **win** is what History calls won or a shared first place
  (``games.history.selectors.outcome``): the result's word where it has one
  (cooperative games, solitaire), otherwise rank 1, alone or shared; a player who
  resigned or forfeited on time has lost whatever the ranks say.
- A bot seated twice at one table played one match: its **first** seat counts, as for
  its rating (``games.ratings.rules.rated_seats``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.db.models import (
    Case,
    Count,
    Exists,
    F,
    IntegerField,
    Max,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)

from accounts.models import User
from games.engine import Game, IllegalAction, get
from games.history.selectors import HistoryPage, history_page, outcome
from games.models import Match, Seat
from games.ratings.selectors import PlayerRating, RatingPoint, latest_rating_points, ratings_of

# Rows of the recent-matches list; History's page of the player has the rest.
RECENT_MATCHES = 10
# The chart of a game shows its latest rated matches, at most this many: enough to see a
# trend, few enough to draw (and to read from the database) on every view of the page.
CHART_POINTS = 100


@dataclass(frozen=True)
class GameRecord:
    """How a player has done in one game, over all their finished matches of it."""

    game_slug: str
    game_name: str
    played: int
    won: int  # shared first places included
    # The sum and number of the ranks (a match ended early may rank nobody): the
    # average is worked out from whole numbers, so it is exact.
    rank_total: int
    ranked: int
    best_streak: int  # most wins in a row, in finishing order
    current_streak: int  # wins since the latest match that was not one
    is_cooperative: bool  # the table wins or loses together: ranks say nothing
    is_rated_game: bool
    rating: PlayerRating | None  # None: no rated match yet (or a game never rated)

    @property
    def average_rank(self) -> float | None:
        """The average place, 1 the best; None where places say nothing (a cooperative game)."""
        if self.is_cooperative or not self.ranked:
            return None
        return self.rank_total / self.ranked

    @property
    def win_percent(self) -> int:
        return round(100 * self.won / self.played)


@dataclass(frozen=True)
class RatingSeries:
    """The points of one game's rating chart: the latest ``CHART_POINTS`` rated matches."""

    rating: PlayerRating
    points: list[RatingPoint]  # oldest first

    @property
    def is_cut(self) -> bool:
        """Older rated matches are left off the chart."""
        return self.rating.rated_matches > len(self.points)


@dataclass(frozen=True)
class Meetings:
    """The finished matches of one game where the player and the viewer both sat."""

    game_slug: str
    game_name: str
    is_cooperative: bool  # then they played on one side: who won together, not who was ahead
    played: int
    player_ahead: int  # the player finished in a better place than the viewer
    viewer_ahead: int
    won_together: int  # matches of a cooperative game the table won
    last_met: datetime

    @property
    def tied(self) -> int:
        """Matches where neither finished ahead (one place, or no places)."""
        return self.played - self.player_ahead - self.viewer_ahead


@dataclass(frozen=True)
class Profile:
    records: list[GameRecord]  # games the player has finished a match of, by name
    rating_series: list[RatingSeries]  # games the player has a rating in, by name
    # Against the viewer, by game name; None when there is nobody to compare with (a
    # visitor, or the player looking at their own profile).
    meetings: list[Meetings] | None
    recent: HistoryPage  # the latest RECENT_MATCHES the viewer may see


def player_profile(*, player: User, viewer: User | AnonymousUser) -> Profile:
    """Everything the profile page of ``player`` shows to ``viewer``: at most six queries
    (five for a visitor or the player themself), however many matches either has played."""
    ratings = {rating.game_slug: rating for rating in ratings_of(player)}
    return Profile(
        records=game_records(player, ratings),
        rating_series=rating_series(player, ratings),
        # Signed in, and someone else's profile: a record against the viewer.
        meetings=meetings(player, viewer) if isinstance(viewer, User) and viewer.pk != player.pk else None,
        recent=history_page(player=player, viewer=viewer, limit=RECENT_MATCHES),
    )


def game_records(player: User, ratings: dict[str, PlayerRating]) -> list[GameRecord]:
    """``player``'s record in each game they have finished a match of, by game name: one query.

    The streaks are runs of wins in finishing order (``finished_at``, then the match),
    found by the database as "gaps and islands": numbering each seat by the matches
    not won up to and including it splits a game's seats into runs, each such a match
    (but the first run) and the wins after it. A run's wins are a streak; the last
    run's are the current one.
    """
    is_win = Case(
        When(outcome__in=["won", "shared"], then=Value(1)), default=Value(0), output_field=IntegerField()
    )
    # One row per counted seat; the ORM says which seats and how each went (History's rule).
    seats = (
        counted_seats(player)
        .annotate(outcome=outcome())
        .annotate(game=F("match__game"), finished=F("match__finished_at"), place=F("rank"), won=is_win)
        .order_by()
        .values("game", "finished", "match_id", "place", "won")
    )
    seats_sql, params = seats.query.sql_with_params()
    # Numbering over a window, then grouping twice (runs, then games), is beyond the ORM:
    # its query, compiled, is the innermost table here (its values stay parameters).
    sql = f"""
        SELECT game, SUM(played), SUM(won), SUM(rank_total), SUM(ranked), MAX(won),
               MAX(CASE WHEN run = runs THEN won ELSE 0 END)
        FROM (
            SELECT game, run, runs, COUNT(*) AS played, SUM(won) AS won,
                   SUM(place) AS rank_total, COUNT(place) AS ranked
            FROM (
                SELECT game, place, won,
                       SUM(1 - won) OVER (
                           PARTITION BY game ORDER BY finished, match_id
                           ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
                       ) AS run,
                       SUM(1 - won) OVER (PARTITION BY game) AS runs
                FROM ({seats_sql}) AS seats
            ) AS numbered
            GROUP BY game, run, runs
        ) AS streaks
        GROUP BY game
    """
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    records = []
    for slug, played, wins, rank_total, ranked, best, current in rows:
        game = _engine(slug)
        records.append(
            GameRecord(
                game_slug=slug,
                game_name=str(game.name) if game else slug,
                played=int(played),
                won=int(wins),
                rank_total=int(rank_total or 0),
                ranked=int(ranked),
                best_streak=int(best),
                current_streak=int(current),
                is_cooperative=bool(game and game.is_cooperative),
                is_rated_game=bool(game and game.is_rated),
                rating=ratings.get(slug),
            )
        )
    return sorted(records, key=lambda record: record.game_name)


def rating_series(
    player: User, ratings: dict[str, PlayerRating], *, limit: int = CHART_POINTS
) -> list[RatingSeries]:
    """The latest ``limit`` rated matches of ``player`` in each game they have a
    rating in, oldest first, by game name: one query (ratings' ``latest_rating_points``)."""
    points = latest_rating_points(player, ratings, limit=limit)
    series = [RatingSeries(rating=rating, points=points[slug]) for slug, rating in ratings.items()]
    return sorted(series, key=lambda one: one.rating.game_name)


def meetings(player: User, viewer: User) -> list[Meetings]:
    """The finished matches of each game where ``player`` and ``viewer`` both sat (so
    the viewer may see them all), by game name: one query. Who was ahead is read from
    the places: a lower rank, including a rank after resigning."""
    viewer_seats = Seat.objects.filter(match_id=OuterRef("match_id"), user_id=viewer.pk).order_by("index")
    rows = (
        counted_seats(player)
        .filter(Exists(viewer_seats))
        .annotate(viewer_rank=Subquery(viewer_seats.values("rank")[:1]))
        .values("match__game")
        .annotate(
            played=Count("pk"),
            player_ahead=Count("pk", filter=Q(rank__lt=F("viewer_rank"))),
            viewer_ahead=Count("pk", filter=Q(rank__gt=F("viewer_rank"))),
            won_together=Count("pk", filter=Q(match__result__won=True)),
            last_met=Max("match__finished_at"),
        )
        .order_by()
    )
    found = []
    for row in rows:
        game = _engine(row["match__game"])
        found.append(
            Meetings(
                game_slug=row["match__game"],
                game_name=str(game.name) if game else row["match__game"],
                is_cooperative=bool(game and game.is_cooperative),
                played=row["played"],
                player_ahead=row["player_ahead"],
                viewer_ahead=row["viewer_ahead"],
                won_together=row["won_together"],
                last_met=row["last_met"],
            )
        )
    return sorted(found, key=lambda one: one.game_name)


def counted_seats(player: User) -> QuerySet[Seat]:
    """``player``'s seats in finished matches, one per match: their first at the table."""
    earlier_seat = Seat.objects.filter(
        match_id=OuterRef("match_id"), user_id=OuterRef("user_id"), index__lt=OuterRef("index")
    )
    return Seat.objects.filter(user=player, match__status=Match.Status.FINISHED).filter(~Exists(earlier_seat))


def _engine(slug: str) -> Game[Any] | None:
    """The game's engine; None for a game taken off the site (its matches still count)."""
    try:
        return get(slug)
    except IllegalAction:
        return None
