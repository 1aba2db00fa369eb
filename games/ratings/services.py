"""Rating writes: apply one finished match (the match-finished subscriber), and replay
every finished match from nothing (``manage.py rebuild_ratings``).

How one game's ratings stay right (docs/site.md, "Ratings"):

- **Once per match.** A match's ``RatingChange`` rows, one per rated player, are
  written in the transaction that updates the ``Rating`` rows, and their unique key
  (match, player) refuses a second application: a second transaction that got that far
  fails whole, its rating updates with it. So an announcement that comes twice, a task
  run again after its worker died, or two runs at once move each rating once.
- **No lost update, one at a time.** Every transaction that changes a game's ratings
  first locks that game's ``RatingLedger`` row, and only then reads the ratings it
  changes. On PostgreSQL the row lock makes a second run wait for the first's commit
  (and then see its rows); on SQLite, where ``select_for_update`` does nothing, every
  write transaction already runs alone (``transaction_mode`` IMMEDIATE takes the
  database's write lock at BEGIN). The ledger is the only lock taken here, so it
  cannot deadlock with the core's (tournament, match, seats).
- **In finishing order.** One game's ratings are always the result of applying the
  matches rated so far in (``finished_at``, id) order, which is the order the replay
  uses. Tasks may come in another order: an announcement resent after a worker died,
  or, on PostgreSQL, two matches whose finishing transactions commit in the other
  order than their clocks read. A match that finished before some already applied
  takes them back (each ``RatingChange`` keeps the rating before it), is applied, and
  they are applied again after it, all in one transaction. Out-of-order arrivals are
  rare and close together (the resend sweep sends oldest first), so little is redone.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from enum import StrEnum

from django.db import transaction

from games.engine import IllegalAction, all_games, get
from games.errors import ErrorCode, MatchError
from games.models import Match
from games.ratings import rules, selectors
from games.ratings.models import Rating, RatingChange, RatingLedger
from games.services import announcement_delivered

# The task that hears "match finished" (settings.MATCH_FINISHED_TASKS names it).
MATCH_FINISHED_TASK = "games.ratings.tasks.match_finished"


class RateOutcome(StrEnum):
    """What match_rate did, besides the reasons a match is not rated (``rules.Unrated``)."""

    RATED = "rated"
    ALREADY_RATED = "already rated"


RATING_FIELDS = ["mu", "sigma", "conservative", "rated_matches", "last_rated_at"]
# Rows written per INSERT by the replay.
BATCH = 2_000


def match_rate(*, match_id: int) -> RateOutcome | rules.Unrated:
    """Apply a finished match to its players' ratings, once, in finishing order, and
    mark its announcement delivered. Returns ``RateOutcome.RATED``, ``ALREADY_RATED`` (a resent
    announcement) or why the match is not rated (``rules.Unrated``). A match that
    does not exist or has not finished is refused (``MatchError``), changing nothing."""
    match = _finished_match(match_id)
    with transaction.atomic():
        lock_ledger(match.game)
        outcome = _rate_in_order(match)
    announcement_delivered(match_id=match.pk, task_name=MATCH_FINISHED_TASK)
    return outcome


def ratings_rebuild(*, game_slugs: Sequence[str] | None = None) -> dict[str, int]:
    """Forget the ratings of these games (all by default) and apply every finished
    match of each again, in (``finished_at``, id) order, from the starting rating: the
    numbers the announcements arrived at, exactly, since both go through ``rules``
    with the same inputs. One transaction per game, holding its ledger: the game's
    rating tasks wait for it (on SQLite, every writer does: run it when the site is
    quiet). Returns the number of rated matches per game."""
    slugs = [game.slug for game in all_games()] if game_slugs is None else list(game_slugs)
    for slug in slugs:
        try:
            get(slug)
        except IllegalAction:
            raise MatchError(ErrorCode.NO_SUCH_GAME, f"There is no game {slug!r}.") from None
    rated: dict[str, int] = {}
    for slug in slugs:
        with transaction.atomic():
            lock_ledger(slug)
            rated[slug] = _replay(slug)
    return rated


def lock_ledger(game_slug: str) -> None:
    """Lock ``game_slug``'s ratings until the transaction ends (the row is made the first
    time; a concurrent first insert is skipped, then waited for by the lock)."""
    RatingLedger.objects.bulk_create([RatingLedger(game=game_slug)], ignore_conflicts=True)
    RatingLedger.objects.select_for_update().get(game=game_slug)


def _finished_match(match_id: int) -> Match:
    match = None
    if type(match_id) is int:
        match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise MatchError(ErrorCode.NO_SUCH_MATCH, f"There is no match {match_id!r}.")
    if match.status != Match.Status.FINISHED or match.finished_at is None:
        raise MatchError(ErrorCode.NOT_ALLOWED, f"Match {match.pk} has not finished: only a result is rated.")
    return match


def _rate_in_order(match: Match) -> RateOutcome | rules.Unrated:
    """Call with the game's ledger locked."""
    assert match.finished_at is not None
    if RatingChange.objects.filter(match=match).exists():
        return RateOutcome.ALREADY_RATED
    table = selectors.seat_results([match.pk]).get(match.pk, [])
    reason = rules.why_unrated(game_is_rated=_is_rated(match.game), seats=table, match_is_rated=match.rated)
    if reason is not None:
        return reason
    # Applied already but finished after this one (a late task, or on PostgreSQL a later
    # commit of an earlier finish): taken back, then applied again after it, so the
    # game's ratings stay its rated matches applied in finishing order.
    later = selectors.later_rated_matches(match.game, match.finished_at, match.pk)
    for later_id in later:  # latest first
        _take_back(match.game, later_id)
    _apply(match.game, match.pk, match.finished_at, table)
    if later:
        finished = {
            pk: at for pk, at in Match.objects.filter(pk__in=later).values_list("pk", "finished_at") if at
        }
        tables = selectors.seat_results(later)
        for later_id in reversed(later):
            _apply(match.game, later_id, finished[later_id], tables[later_id])
    return RateOutcome.RATED


def _apply(game_slug: str, match_id: int, finished_at: datetime, table: list[rules.SeatResult]) -> None:
    """Apply one rated match on top of the ratings as they are."""
    players = {rules.player(seat) for seat in table}
    ratings = {
        rating.user_id: rating for rating in Rating.objects.filter(game=game_slug, user_id__in=players)
    }
    new = {
        user_id: _starting_rating(user_id, game_slug) for user_id in sorted(players) if user_id not in ratings
    }
    ratings.update(new)
    before = {user_id: rules.Skill(rating.mu, rating.sigma) for user_id, rating in ratings.items()}
    after = rules.rate(table, before)
    # First: a second application of this match stops here (the unique key), before any rating moves.
    RatingChange.objects.bulk_create(
        [_change(game_slug, match_id, finished_at, seat, before, after) for seat in rules.rated_seats(table)]
    )
    for user_id, skill in after.items():
        _set(ratings[user_id], skill, ratings[user_id].rated_matches + 1)
        ratings[user_id].last_rated_at = _later(ratings[user_id].last_rated_at, finished_at)
    Rating.objects.bulk_create(new.values())
    Rating.objects.bulk_update(
        [rating for user_id, rating in ratings.items() if user_id not in new], RATING_FIELDS
    )


def _take_back(game_slug: str, match_id: int) -> None:
    """Undo one applied match: its players' ratings go back to what they were before it.
    Call for the latest applied match first. ``last_rated_at`` stays: the match is
    applied again in the same transaction, and that column only moves forward."""
    changes = list(RatingChange.objects.filter(match_id=match_id))
    players = [change.user_id for change in changes]
    ratings = {
        rating.user_id: rating for rating in Rating.objects.filter(game=game_slug, user_id__in=players)
    }
    for change in changes:
        rating = ratings[change.user_id]
        _set(rating, rules.Skill(change.mu_before, change.sigma_before), rating.rated_matches - 1)
    Rating.objects.bulk_update(ratings.values(), RATING_FIELDS)
    RatingChange.objects.filter(match_id=match_id).delete()


def _replay(game_slug: str) -> int:
    """Every finished match of one game, applied in order from nothing (the ledger locked)."""
    RatingChange.objects.filter(game=game_slug).delete()
    Rating.objects.filter(game=game_slug).delete()
    if not _is_rated(game_slug):
        return 0
    matches = [
        (match_id, finished_at)
        for match_id, finished_at in Match.objects.filter(
            game=game_slug, status=Match.Status.FINISHED, rated=True
        )
        .order_by("finished_at", "pk")
        .values_list("pk", "finished_at")
        if finished_at is not None
    ]
    skills: dict[int, rules.Skill] = {}
    counts: dict[int, int] = {}
    last: dict[int, datetime] = {}
    changes: list[RatingChange] = []
    rated = 0
    for start in range(0, len(matches), selectors.CHUNK):
        chunk = matches[start : start + selectors.CHUNK]
        tables = selectors.seat_results(match_id for match_id, _ in chunk)
        for match_id, finished_at in chunk:
            table = tables.get(match_id, [])
            if rules.why_unrated(game_is_rated=True, seats=table) is not None:
                continue
            before = {rules.player(seat): skills.get(rules.player(seat), rules.START) for seat in table}
            after = rules.rate(table, before)
            for seat in rules.rated_seats(table):
                changes.append(_change(game_slug, match_id, finished_at, seat, before, after))
            for user_id, skill in after.items():
                skills[user_id] = skill
                counts[user_id] = counts.get(user_id, 0) + 1
                last[user_id] = finished_at
            rated += 1
        if len(changes) >= BATCH:
            RatingChange.objects.bulk_create(changes, batch_size=BATCH)
            changes = []
    RatingChange.objects.bulk_create(changes, batch_size=BATCH)
    ratings = [Rating(user_id=user_id, game=game_slug, rated_matches=counts[user_id], last_rated_at=last[user_id])
               for user_id in sorted(skills)]  # fmt: skip
    for rating in ratings:
        _set(rating, skills[rating.user_id], rating.rated_matches)
    Rating.objects.bulk_create(ratings, batch_size=BATCH)
    return rated


def _starting_rating(user_id: int, game_slug: str) -> Rating:
    rating = Rating(user_id=user_id, game=game_slug, rated_matches=0)
    _set(rating, rules.START, 0)
    return rating


def _set(rating: Rating, skill: rules.Skill, rated_matches: int) -> None:
    rating.mu, rating.sigma = skill.mu, skill.sigma
    rating.conservative = skill.conservative
    rating.rated_matches = rated_matches


def _change(
    game_slug: str,
    match_id: int,
    finished_at: datetime,
    seat: rules.SeatResult,
    before: dict[int, rules.Skill],
    after: dict[int, rules.Skill],
) -> RatingChange:
    user_id = rules.player(seat)
    return RatingChange(
        match_id=match_id,
        user_id=user_id,
        game=game_slug,
        finished_at=finished_at,
        seat=seat.index,
        rank=rules.place(seat),
        mu_before=before[user_id].mu,
        sigma_before=before[user_id].sigma,
        mu_after=after[user_id].mu,
        sigma_after=after[user_id].sigma,
    )


def _later(current: datetime | None, finished_at: datetime) -> datetime:
    return finished_at if current is None or finished_at > current else current


def _is_rated(game_slug: str) -> bool:
    try:
        return bool(get(game_slug).is_rated)
    except IllegalAction:  # a game taken off the site rates nothing more
        return False
