"""Reads of History: a player's finished matches, one keyset page at a time, and the
matches as their export documents (``games/history/export.py``).

A row is the player's seat in a finished match, with that match and everyone at its
table. Each page costs the same two queries however long the history is (the rows
with their matches, then the tables' seats with their users), and never an OFFSET:
a page starts after the cursor of the one before (``games/history/cursors.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from django.contrib.auth.models import AnonymousUser
from django.db.models import Case, Exists, OuterRef, Prefetch, Q, QuerySet, Value, When

from accounts.models import User
from games.history import export
from games.history.cursors import Cursor
from games.history.rated import rated_matches
from games.match_notes import MatchNote, notes_of
from games.models import Match, Move, Seat
from games.selectors import OUTCOME_WORDS, final_score_words, rank_words

Outcome = Literal["won", "lost", "shared"]
OUTCOMES: dict[str, str] = OUTCOME_WORDS

PAGE_SIZE = 25
# Matches per query of an export stream: few enough that their moves (a few hundred
# each) sit in memory at once, many enough that 10,000 matches take a few hundred queries.
EXPORT_CHUNK = 100


@dataclass(frozen=True)
class HistoryFilters:
    """What a list is narrowed to; every field empty by default (the whole history)."""

    game: str | None = None
    opponent: str = ""  # part of a name or username of someone else at the table
    outcome: Outcome | None = None
    bots: Literal["with", "without"] | None = None  # bots at the table besides the player
    rated: bool | None = None
    finished_from: datetime | None = None  # inclusive
    finished_before: datetime | None = None  # exclusive


@dataclass
class HistoryRow:
    match: Match
    seat: Seat  # the player's
    table: list[Seat]  # every seat, in turn order, with its user
    outcome: Outcome
    is_rated: bool
    # What features say about the match ("Autumn Cup: round 2, table 3": games/match_notes.py).
    notes: list[MatchNote] = field(default_factory=list)

    @property
    def others(self) -> list[Seat]:
        return [seat for seat in self.table if seat.pk != self.seat.pk]

    @property
    def outcome_text(self) -> str:
        return OUTCOMES[self.outcome]

    @property
    def score_text(self) -> str:
        return final_score_words(self.seat, self.match)

    @property
    def rank_text(self) -> str:
        return rank_words(self.seat, self.table, self.match)


@dataclass
class HistoryPage:
    rows: list[HistoryRow]
    next_cursor: Cursor | None  # None on the last page


# Newest first; the seat's id breaks ties (games/history/cursors.py).
ORDER = ("-match__finished_at", "-pk")


def outcome() -> Case:
    """How the seat of each row did: "won", "shared" or "lost" (an expression over ``Seat`` rows).

    Where the result says "won" (cooperative games, where everyone wins or loses
    together, and solitaire matches) that decides. Otherwise rank 1 alone is a win,
    rank 1 with someone else a shared first place, and anything else (a lower rank,
    resigning or losing on time) a loss.
    """
    another_first = Seat.objects.filter(match_id=OuterRef("match_id"), rank=1).exclude(pk=OuterRef("pk"))
    decided_by_result = Q(match__result__has_key="won")
    return Case(
        When(decided_by_result & Q(match__result__won=True), then=Value("won")),
        When(decided_by_result, then=Value("lost")),
        When(Q(resigned_at__isnull=False) | ~Q(rank=1), then=Value("lost")),
        When(Exists(another_first), then=Value("shared")),
        default=Value("won"),
    )


def history_page(
    *,
    player: User,
    viewer: User | AnonymousUser,
    filters: HistoryFilters | None = None,
    after: Cursor | None = None,
    limit: int = PAGE_SIZE,
    with_notes: bool = True,
) -> HistoryPage:
    """``player``'s finished matches that ``viewer`` may see, newest first, ``limit`` at
    most, starting after ``after``. Someone else's private matches show only to the
    people who played them."""
    filters = filters or HistoryFilters()
    # The page's rows are chosen first (an inner query: filtered, ordered, limited), and
    # only those are worked out in full. Asked in one query for everything, PostgreSQL
    # planned the "rated" column once for every match of the site (1.7 s for a player
    # with 10,000 matches) rather than for the 26 rows it keeps: bench/history.py.
    chosen = history_rows(player, viewer, filters, after).values("pk")[: limit + 1]
    seats = list(
        Seat.objects.filter(pk__in=chosen)
        .annotate(outcome=outcome(), is_rated=Exists(_rated_match()))
        .select_related("match")
        .defer("match__state")  # the engine's whole state: neither listed nor exported
        .prefetch_related(
            Prefetch(
                "match__seats",
                queryset=Seat.objects.select_related("user").order_by("index"),
                to_attr="table",
            )
        )
        .order_by(*ORDER)
    )
    has_more = len(seats) > limit
    seats = seats[:limit]
    # What features say of the matches (a query per feature that has notes), for a page to show.
    notes = notes_of([seat.match for seat in seats]) if with_notes else {}
    page_rows = [
        HistoryRow(
            match=seat.match,
            seat=seat,
            table=seat.match.table,  # type: ignore[attr-defined]
            outcome=seat.outcome,
            is_rated=seat.is_rated,
            notes=notes.get(seat.match_id, []),
        )
        for seat in seats
    ]
    next_cursor = None
    if has_more and seats:
        last = seats[-1]
        assert last.match.finished_at is not None  # finished matches always have it
        next_cursor = Cursor(last.match.finished_at, last.pk)
    return HistoryPage(rows=page_rows, next_cursor=next_cursor)


def history_rows(
    player: User, viewer: User | AnonymousUser, filters: HistoryFilters, after: Cursor | None
) -> QuerySet[Seat]:
    """The seats of ``player`` in the finished matches that fit, in page order: the query
    that picks a page's rows (``bench/history.py`` explains it)."""
    # The row is the player's seat: its rank and how it did are columns of the row, and
    # the player's seats are found by the index on Seat.user.
    rows = Seat.objects.filter(user=player, match__status=Match.Status.FINISHED).order_by(*ORDER)
    if viewer.pk != player.pk:
        seen_by_viewer = Q(match__visibility=Match.Visibility.PUBLIC)
        if viewer.is_authenticated:
            seen_by_viewer |= Q(Exists(Seat.objects.filter(match_id=OuterRef("match_id"), user_id=viewer.pk)))
        rows = rows.filter(seen_by_viewer)
    others = Seat.objects.filter(match_id=OuterRef("match_id")).exclude(pk=OuterRef("pk"))
    if filters.game:
        rows = rows.filter(match__game=filters.game)
    if filters.opponent:
        name = filters.opponent
        # The name the seat had at the table, or the account's username or name now; the
        # accounts are looked up once, not joined to every seat.
        named_now = User.objects.filter(Q(username__icontains=name) | Q(display_name__icontains=name))
        rows = rows.filter(Exists(others.filter(Q(display_name__icontains=name) | Q(user__in=named_now))))
    if filters.outcome:
        rows = rows.alias(outcome=outcome()).filter(outcome=filters.outcome)
    # A bot is a house bot or a program's bot account: whatever shows "bot" at the table.
    bots = Q(user__is_bot=True) | Q(user__bot_account_since__isnull=False)
    if filters.bots == "with":
        rows = rows.filter(Exists(others.filter(bots)))
    elif filters.bots == "without":
        rows = rows.filter(~Exists(others.filter(bots)))
    if filters.rated is True:
        rows = rows.filter(Exists(_rated_match()))
    elif filters.rated is False:
        rows = rows.filter(~Exists(_rated_match()))
    if filters.finished_from:
        rows = rows.filter(match__finished_at__gte=filters.finished_from)
    if filters.finished_before:
        rows = rows.filter(match__finished_at__lt=filters.finished_before)
    if after is not None:
        rows = rows.filter(
            Q(match__finished_at__lt=after.finished_at)
            | Q(match__finished_at=after.finished_at, pk__lt=after.seat_id)
        )
    return rows


def _rated_match() -> QuerySet[Match]:
    """The row's match, if it is rated (``games/history/rated.py``): for ``Exists``."""
    return Match.objects.filter(rated_matches(), pk=OuterRef("match_id"))


# -- export ------------------------------------------------------------------------


def match_export(match: Match, table: list[Seat]) -> dict[str, Any]:
    """The export document of a finished match (``docs/export.md``); ``table``: its seats
    with their users, as ``games.selectors.access`` loads them. One query: the moves."""
    moves = list(
        Move.objects.filter(match=match).order_by("ply").values_list("ply", "seat", "action", "created_at")
    )
    return export.match_document(match, table, moves)


def export_chunks(*, player: User, filters: HistoryFilters | None = None) -> Iterator[list[dict[str, Any]]]:
    """Every finished match of ``player`` (narrowed by ``filters``) as export documents,
    newest first, ``EXPORT_CHUNK`` matches at a time: three queries a chunk (the page,
    its seats, its moves), so memory holds one chunk whatever the history's length."""
    after = None
    while True:
        documents, after = export_chunk(player=player, filters=filters, after=after)
        if documents:
            yield documents
        if after is None:
            return


def export_chunk(
    *, player: User, filters: HistoryFilters | None, after: Cursor | None
) -> tuple[list[dict[str, Any]], Cursor | None]:
    """One chunk of ``export_chunks`` and the cursor of the next (None after the last):
    the unit a stream reads between two sends."""
    page = history_page(
        player=player, viewer=player, filters=filters, after=after, limit=EXPORT_CHUNK, with_notes=False
    )
    match_ids = [row.match.pk for row in page.rows]
    moves: dict[int, list[tuple[int, int, Any, datetime]]] = {match_id: [] for match_id in match_ids}
    for match_id, ply, seat, action, created_at in (
        Move.objects.filter(match_id__in=match_ids)
        .order_by("match_id", "ply")
        .values_list("match_id", "ply", "seat", "action", "created_at")
    ):
        moves[match_id].append((ply, seat, action, created_at))
    documents = [export.match_document(row.match, row.table, moves[row.match.pk]) for row in page.rows]
    return documents, page.next_cursor
