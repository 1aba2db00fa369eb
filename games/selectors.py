"""Reads for pages, sockets and the API: who may see a match, and what they see.

Everything a viewer is shown of a running game comes from ``board_for``, which
builds it from the viewer's seat view (``games.boards``); the state never leaves.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.contrib.humanize.templatetags.humanize import ordinal
from django.db.models import Count, Exists, OuterRef, Prefetch, Q, QuerySet, prefetch_related_objects

from accounts.models import User
from games import replays
from games.boards import Board, build_board, score_in_words
from games.engine import IllegalAction
from games.engine.log import render_text
from games.models import Announcement, Match, Move, Seat
from games.scores_json import result_json


class NotVisible(Exception):
    """The match does not exist for this viewer (shown as 404: private matches stay unknown)."""


# A seat a bot plays: a bot account's, or the autopilot's for a player who resigned.
PLAYED_BY_BOT = Q(user__is_bot=True) | Q(resigned_at__isnull=False)


def bot_seat_owing(match_id: int, ply: int) -> Seat | None:
    """The bot-played seat owing a decision in a running match still at ``ply``, if any."""
    return (
        Seat.objects.select_related("user", "match")
        .filter(
            PLAYED_BY_BOT,
            match_id=match_id,
            match__ply=ply,
            match__status=Match.Status.RUNNING,
            owes_decision=True,
        )
        .first()
    )


def bot_turns_waiting_since(queued_before: datetime, *, limit: int) -> list[tuple[int, int]]:
    """(match id, ply) of running matches whose bot turn was last queued before
    ``queued_before``: when the turn began (``updated_at``) or when the recovery sweep
    last queued it again (``bot_requeued_at``). The longest waiting first, at most ``limit``.

    First the few seats that owe a bot's decision, by index (a bot account's by (user,
    owes_decision), a resigned player's autopilot by ``seat_autopilot_owes``), then their
    matches by id: one query when nothing waits, whatever the number of running matches.
    Asked in one query joined to the matches, PostgreSQL read every running match instead
    (it cannot know that bots owe few of their many seats): 80 ms over 100,000 running
    matches, 1 ms this way, and the sweep asks every few seconds (docs/site.md, "Bots")."""
    # A bot account's seats by "owes_decision = true", not Django's bare "WHERE
    # owes_decision": SQLite (no statistics here) uses both columns of the index only
    # for a comparison (0.4 ms, not 38 ms over 400,000 seats). The autopilot's by the
    # partial index's own condition.
    bots = User.objects.filter(is_bot=True).values("pk")
    owed_to_bots = Seat.objects.filter(user__in=bots, owes_decision__in=[True]).order_by()
    owed_to_autopilots = Seat.objects.filter(owes_decision=True, resigned_at__isnull=False).order_by()
    match_ids = sorted(
        set(
            owed_to_bots.values_list("match_id", flat=True).union(
                owed_to_autopilots.values_list("match_id", flat=True)
            )
        )
    )
    turns: list[tuple[datetime, int, int]] = []
    for start in range(0, len(match_ids), 500):  # SQLite takes at most 999 values in a query
        turns += Match.objects.filter(
            Q(bot_requeued_at__isnull=True) | Q(bot_requeued_at__lt=queued_before),
            pk__in=match_ids[start : start + 500],
            status=Match.Status.RUNNING,
            updated_at__lt=queued_before,
        ).values_list("updated_at", "pk", "ply")
    return [(match_id, ply) for _, match_id, ply in sorted(turns)[:limit]]


def announcements_owed(
    now: datetime, *, first_retry: float, longest_retry: float, limit: int
) -> list[Announcement]:
    """Undelivered match-finished announcements due to be sent again at ``now``, the
    oldest first, at most ``limit``: never sent, or last sent longer ago than their retry
    interval, which is ``first_retry`` seconds after the first send and doubles with each
    send after it, up to ``longest_retry``. Not those given up: the sweep gives up on
    those of them that had their last attempt (``tasks.resend_announcements``)."""
    due = Q(sent_at__isnull=True)
    attempts, wait = 1, first_retry
    while wait < longest_retry:
        due |= Q(attempts=attempts, sent_at__lt=now - timedelta(seconds=wait))
        attempts, wait = attempts + 1, wait * 2
    due |= Q(attempts__gte=attempts, sent_at__lt=now - timedelta(seconds=longest_retry))
    owed = Announcement.objects.filter(due, delivered_at__isnull=True, gave_up_at__isnull=True)
    return list(owed.order_by("created_at")[:limit])


def announcements_undelivered_count() -> int:
    """How many match-finished announcements no subscriber has finished yet, given up
    ones included until an operator sends them again (read by the partial index
    ``announcement_owed``): ``/metrics`` shows it at every scrape."""
    return Announcement.objects.filter(delivered_at__isnull=True).count()


@dataclass
class Access:
    match: Match
    seats: list[Seat]
    my_seat: Seat | None  # the viewer's seat (joined or invited), if any
    # The invitation token the viewer came with, when it is this match's: the page keeps
    # it in its join form, its socket and its board fetches.
    invite: str | None = None
    # Who is looking: the live part is rendered for them on the page and over the socket
    # alike (a socket has no request to read the user from).
    viewer: User | AnonymousUser | None = None

    @property
    def seat_index(self) -> int | None:
        """The seat whose view the viewer gets: a joined seat (a resigned player still sees it)."""
        if self.my_seat is None or self.my_seat.joined_at is None:
            return None
        return self.my_seat.index

    @property
    def can_act(self) -> bool:
        """The viewer plays here now: seated, not resigned, in a running match."""
        return (
            self.seat_index is not None
            and self.my_seat is not None
            and self.my_seat.resigned_at is None
            and self.match.status == Match.Status.RUNNING
        )


def access(
    match_id: int, user: User | AnonymousUser, *, invite: str | None = None, with_state: bool = True
) -> Access:
    """What ``user`` may see of a match; raises ``NotVisible``.

    Public matches are open to everyone. A private match is seen by its players and
    invitees, by the person who made it (seated or not: a private table of bots is made
    to be watched), and while it waits for players by anyone holding its invitation
    link (``invite``, the token in it); to anyone else it does not exist, so that
    guessing ids finds nothing.

    ``with_state=False``: the match without its state (up to tens of KB of JSON), for
    a check of who may see it and who the viewer is there, not for drawing a board.
    """
    matches = Match.objects.all() if with_state else Match.objects.defer("state")
    match = matches.filter(pk=match_id).first()
    if match is None:
        raise NotVisible
    return access_to(match, list(match.seats.select_related("user")), user, invite=invite)


def access_to(
    match: Match, seats: list[Seat], user: User | AnonymousUser, *, invite: str | None = None
) -> Access:
    """``access`` on a match and its seats (with their users) read already; raises ``NotVisible``."""
    mine = next((seat for seat in seats if user.is_authenticated and seat.user_id == user.pk), None)
    invited_by_link = match.invite_matches(invite)
    made_it = user.is_authenticated and match.created_by_id == user.pk
    if (
        not match.is_public
        and mine is None
        and not made_it
        and not (match.status == Match.Status.OPEN and invited_by_link)
    ):
        raise NotVisible
    return Access(
        match=match, seats=seats, my_seat=mine, invite=invite if invited_by_link else None, viewer=user
    )


def seat_names(seats: list[Seat]) -> list[str]:
    return [seat.public_name for seat in seats]


def board_for(access: Access, *, state: Any = None) -> Board | None:
    """The viewer's board, or None before the match starts. ``state``: the match's state
    decoded already (one decoding for every viewer of a read, games/live/fragments.py)."""
    match = access.match
    if match.state is None:
        return None
    game = match.engine
    if state is None:
        state = match.decoded_state()
    board = build_board(
        game,
        state,
        access.seat_index,
        seat_names(access.seats),
        match.ply,
        stopped=replays.stopped_at(match, access.seats, state, you=access.seat_index),
    )
    if not access.can_act:
        board.actions = []  # a resigned player watches; the autopilot plays the seat
    return board


def api_view(access: Access) -> dict[str, Any]:
    """The JSON a program gets: its seat's view, the ply and its legal actions."""
    match = access.match
    data: dict[str, Any] = {
        "id": match.pk,
        "game": match.game,
        "status": match.status,
        "ply": match.ply,
        "options": match.options,
        "seat": access.seat_index,
        "players": [
            {
                "seat": seat.index,
                "name": name,
                "is_bot": bool(seat.user and seat.user.labelled_bot),
                "resigned": seat.resigned_at is not None,
            }
            for seat, name in zip(access.seats, seat_names(access.seats), strict=True)
        ],
        "to_act": [],
        "view": None,
        "legal_actions": [],
        "result": result_json(match.result),
    }
    if match.state is not None:
        # The view and legal actions straight from the engine: no board (labels, layout) is drawn.
        game = match.engine
        state = match.decoded_state()
        to_act = game.to_act(state)
        seat = access.seat_index
        data["to_act"] = to_act if match.status == Match.Status.RUNNING else []
        data["view"] = game.view(state, seat)
        if access.can_act and seat in to_act:
            data["legal_actions"] = game.legal_actions(state, seat)
    return data


def move_public_log(move: Move) -> list[str] | None:
    """What a spectator's log says of ``move``: the public texts of the entries it added.

    The admin shows this instead of the raw action, which may hold a secret choice.
    Log entries carry no ply, so the match is replayed from its seed up to the move
    (server side, as every move was played). None if the match no longer replays
    (its rules changed since).
    """
    match = move.match
    game = match.engine
    seats = list(match.seats.select_related("user").order_by("index"))
    try:
        state = replays.state_at(match, move.ply)
        before = len(game.view(state, None)["log"])
        added = game.view(game.apply(state, move.seat, move.action), None)["log"][before:]
    except IllegalAction:
        return None
    names = seat_names(seats)
    return [render_text(str(item.get("text", "")), names) for item in added]


# -- lists -------------------------------------------------------------------------


def your_turn_count(user: User) -> int:
    return Seat.objects.filter(
        user=user, owes_decision=True, resigned_at__isnull=True, match__status=Match.Status.RUNNING
    ).count()


# A person's seat that waits for them: their turn in a running match, or an invitation to
# answer. One definition for the badge's count and the home page's list of them.
MY_TURN = Q(owes_decision=True, resigned_at__isnull=True, match__status=Match.Status.RUNNING)
MY_INVITATION = Q(joined_at__isnull=True, match__status=Match.Status.OPEN)


def waiting_for_me_count(user: User) -> int:
    """The matches waiting for ``user``: their turn in a running match, or an invitation
    to answer. The navigation's badge and the tab title on every page (one query)."""
    return Seat.objects.filter(user=user).filter(MY_TURN | MY_INVITATION).count()


def bot_account_refusal(user: User) -> str | None:
    """Why ``user`` may not become a bot account for a program now (settings
    ``BOT_ACCOUNT_REFUSALS``): a match running with them at the table. **Decision**: its
    result would turn unrated halfway, a way out of a losing rated match."""
    running = Seat.objects.filter(user=user, match__status=Match.Status.RUNNING).count()
    if running:
        return f"Finish your {running} running match{'es' if running != 1 else ''} first."
    return None


def people_at(match_id: int) -> list[int]:
    """The user ids of the people (not bots) seated or invited at a match."""
    return list(Seat.objects.filter(match_id=match_id, user__is_bot=False).values_list("user_id", flat=True))


def _with_seats(matches: QuerySet[Match]) -> QuerySet[Match]:
    return matches.prefetch_related("seats__user").select_related("created_by")


@dataclass
class Dashboard:
    your_turn: list[Match]
    waiting: list[Match]
    invitations: list[Match]
    open: list[Match]  # mine, still waiting for players
    finished: list[Match]
    watching: list[Match]  # tables I made without a seat (bots only), running or just finished


def dashboard(user: User) -> Dashboard:
    """ "My matches": my turn first (the least time left first), then waiting for
    others, then open ones."""
    mine = Seat.objects.filter(user=user)
    running = _with_seats(
        Match.objects.filter(status=Match.Status.RUNNING, seats__in=mine.filter(joined_at__isnull=False))
    ).order_by("-updated_at")
    my_clocks = {
        match_id: (deadline, paused_with)
        for match_id, deadline, paused_with in mine.filter(
            owes_decision=True, resigned_at__isnull=True, match__status=Match.Status.RUNNING
        ).values_list("match_id", "deadline_at", "clock_left")
    }
    my_deadlines = {match_id: deadline for match_id, (deadline, _) in my_clocks.items()}
    running_list = list(running.distinct())
    your_turn = [match for match in running_list if match.pk in my_deadlines]
    for match in your_turn:
        # For the row's clock: the deadline, or what is left while a vacation pauses it.
        match.my_deadline, match.my_clock_left = my_clocks[match.pk]  # type: ignore[attr-defined]
    # The most urgent first: by time left, matches without a clock last.
    your_turn.sort(
        key=lambda match: (my_deadlines[match.pk] is None, my_deadlines[match.pk] or match.updated_at)
    )
    return Dashboard(
        your_turn=your_turn,
        waiting=[match for match in running_list if match.pk not in my_deadlines],
        invitations=list(
            _with_seats(
                Match.objects.filter(status=Match.Status.OPEN, seats__in=mine.filter(joined_at__isnull=True))
            ).order_by("-created_at")
        ),
        open=list(
            _with_seats(
                Match.objects.filter(status=Match.Status.OPEN, seats__in=mine.filter(joined_at__isnull=False))
            ).order_by("-created_at")
        ),
        finished=list(
            _with_seats(Match.objects.filter(status=Match.Status.FINISHED, seats__in=mine)).order_by(
                "-finished_at"
            )[:10]
        ),
        watching=list(
            _with_seats(
                Match.objects.filter(
                    created_by=user, status__in=[Match.Status.RUNNING, Match.Status.FINISHED]
                ).exclude(seats__user=user)
            ).order_by("-updated_at")[:10]
        ),
    )


def open_public_matches(game_slug: str | None = None, limit: int = 50) -> list[Match]:
    """Public matches waiting for players with a seat anyone may take."""
    matches = Match.objects.filter(status=Match.Status.OPEN, visibility=Match.Visibility.PUBLIC).annotate(
        open_seats=Count("seats", filter=Q(seats__user__isnull=True))
    )
    if game_slug:
        matches = matches.filter(game=game_slug)
    return list(_with_seats(matches.filter(open_seats__gt=0)).order_by("-created_at")[:limit])


def live_public_matches(limit: int = 20) -> list[Match]:
    return list(
        _with_seats(
            Match.objects.filter(status=Match.Status.RUNNING, visibility=Match.Visibility.PUBLIC)
        ).order_by("-updated_at")[:limit]
    )


# -- the signed-in home page -------------------------------------------------------
#
# Each part is one read, and the tables of every match shown (seats and their players)
# one more for all parts together: a fixed number of queries however many matches a
# person has (tests/games/test_query_budgets.py).

HOME_RUNNING = 8  # running matches waiting for others; My matches lists them all
HOME_OPEN_SEATS = 5  # the play page lists every open public match
HOME_RESULTS = 5  # History and My matches have the rest

# How a finished match went for a seat: the words of History's rows and the home's results.
OUTCOME_WORDS = {"won": "Won", "lost": "Lost", "shared": "Shared first place"}


def rank_words(seat: Seat, table: list[Seat], match: Match) -> str:
    """ "2nd of 4"; empty when the seat has no rank (a cooperative game ranks nobody apart)."""
    if seat.rank is None or match.engine.is_cooperative:
        return ""
    return f"{ordinal(seat.rank)} of {len(table)}"


def final_score_words(seat: Seat, match: Match) -> str:
    """ "16 pairs", "23 points": the seat's final score as its game counts it; empty when
    the game keeps none (or a cooperative team's, shared by every seat)."""
    if seat.score is None or match.engine.is_cooperative:
        return ""
    return score_in_words(match.engine, seat.score)


@dataclass
class HomeRow:
    """A match on the home page: the match, the person's seat there (None at a table they
    could join), and its table, read for every row of the page at once."""

    match: Match
    mine: Seat | None
    viewer_id: int

    @property
    def table(self) -> list[Seat]:
        return list(self.match.seats.all())

    @property
    def others(self) -> list[Seat]:
        """Everyone at the table but the person, open seats included."""
        return [seat for seat in self.table if seat.user_id != self.viewer_id]

    @property
    def guests(self) -> list[Seat]:
        """The others but the person who made the match (an invitation names them apart)."""
        return [seat for seat in self.others if seat.user_id != self.match.created_by_id]

    @property
    def to_play(self) -> list[Seat]:
        """The seats that owe a decision now (whose turn it is)."""
        return [seat for seat in self.table if seat.owes_decision]

    @property
    def free_seats(self) -> int:
        """Seats nobody has taken or been invited to (at an open table)."""
        return sum(seat.user_id is None for seat in self.table)

    @property
    def invited(self) -> int:
        """Invitations not answered yet (at an open table)."""
        return sum(seat.user_id is not None and seat.joined_at is None for seat in self.table)

    @property
    def missing(self) -> int:
        """Players an open table still waits for: its free seats and unanswered invitations."""
        return sum(seat.joined_at is None for seat in self.table)


@dataclass
class HomeResult(HomeRow):
    """A finished match of the person's, with History's words for how it went."""

    mine: Seat

    @property
    def outcome(self) -> str:
        """ "won", "lost" or "shared": the rule of ``games/history/selectors.outcome`` (a
        feature the core does not import), in Python over a table already read. Where the
        result says "won" (cooperative and solitaire games) that decides; otherwise rank 1
        alone wins, shared with another seat is a shared first place, anything else
        (a lower rank, resigning, losing on time) loses."""
        result = self.match.result or {}
        if "won" in result:
            return "won" if result["won"] else "lost"
        if self.mine.resigned_at is not None or self.mine.rank != 1:
            return "lost"
        if any(seat.rank == 1 and seat.pk != self.mine.pk for seat in self.table):
            return "shared"
        return "won"

    @property
    def outcome_text(self) -> str:
        return OUTCOME_WORDS[self.outcome]

    @property
    def rank_text(self) -> str:
        return rank_words(self.mine, self.table, self.match)

    @property
    def score_text(self) -> str:
        return final_score_words(self.mine, self.match)


@dataclass
class WaitingForYou:
    """What waits for a person: exactly what ``waiting_for_me_count`` counts."""

    your_turn: list[HomeRow]  # the most urgent clock first (the seat's deadline or paused clock)
    invitations: list[HomeRow]  # newest first; each match with its ``created_by`` read

    @property
    def count(self) -> int:
        return len(self.your_turn) + len(self.invitations)


@dataclass
class RunningMatches:
    """Matches a person plays in that wait for someone else: running, or open and waiting
    for players to join (the latest change first)."""

    rows: list[HomeRow]
    more: bool  # there are more than shown (My matches lists them all)


@dataclass
class Home:
    """The signed-in home page: each part of it, read once (``home``)."""

    waiting: WaitingForYou
    running: RunningMatches
    open_seats: list[HomeRow]  # public, with a free seat, none of the person's; newest first
    results: list[HomeResult]  # the last finished, newest first


def _waiting_for_you(user: User) -> WaitingForYou:
    seats = list(
        Seat.objects.filter(user=user)
        .filter(MY_TURN | MY_INVITATION)
        .select_related("match__created_by")
        .defer("match__state")
    )
    turns = [seat for seat in seats if seat.match.status == Match.Status.RUNNING]
    invitations = [seat for seat in seats if seat.match.status == Match.Status.OPEN]
    # As My matches: the least time left first, matches without a running clock last.
    turns.sort(key=lambda seat: (seat.deadline_at is None, seat.deadline_at or seat.match.updated_at))
    invitations.sort(key=lambda seat: seat.match.created_at, reverse=True)
    return WaitingForYou(
        your_turn=[HomeRow(match=seat.match, mine=seat, viewer_id=user.pk) for seat in turns],
        invitations=[HomeRow(match=seat.match, mine=seat, viewer_id=user.pk) for seat in invitations],
    )


def _running_for_others(user: User) -> RunningMatches:
    """Matches the person plays in that wait for others: running ones where they owe
    nothing now (and have not resigned), and those they sit at waiting for players."""
    seats = list(
        Seat.objects.filter(user=user, joined_at__isnull=False)
        .filter(
            Q(match__status=Match.Status.RUNNING, owes_decision=False, resigned_at__isnull=True)
            | Q(match__status=Match.Status.OPEN)
        )
        .select_related("match")
        .defer("match__state")
        .order_by("-match__updated_at", "-pk")[: HOME_RUNNING + 1]
    )
    rows = [HomeRow(match=seat.match, mine=seat, viewer_id=user.pk) for seat in seats[:HOME_RUNNING]]
    return RunningMatches(rows=rows, more=len(seats) > HOME_RUNNING)


def _open_seats_for(user: User) -> list[HomeRow]:
    free_seat = Seat.objects.filter(match_id=OuterRef("pk"), user__isnull=True)
    theirs = Seat.objects.filter(match_id=OuterRef("pk"), user=user)
    matches = (
        Match.objects.filter(status=Match.Status.OPEN, visibility=Match.Visibility.PUBLIC)
        .filter(Exists(free_seat))
        .exclude(Exists(theirs))
        .exclude(created_by=user)
        .select_related("created_by")
        .defer("state")
        .order_by("-created_at", "-pk")[:HOME_OPEN_SEATS]
    )
    return [HomeRow(match=match, mine=None, viewer_id=user.pk) for match in matches]


def _recent_results(user: User) -> list[HomeResult]:
    seats = (
        Seat.objects.filter(user=user, match__status=Match.Status.FINISHED)
        .select_related("match")
        .defer("match__state")
        .order_by("-match__finished_at", "-pk")[:HOME_RESULTS]
    )
    return [HomeResult(match=seat.match, mine=seat, viewer_id=user.pk) for seat in seats]


def _read_tables(rows: list[HomeRow]) -> None:
    """Every row's table (its seats with their players), for all ``rows`` in one query."""
    prefetch_related_objects(
        [row.match for row in rows], Prefetch("seats", queryset=Seat.objects.select_related("user"))
    )


def home_live(user: User) -> tuple[WaitingForYou, RunningMatches]:
    """The parts of the home page a turn or an invitation changes, which its script
    fetches again when the count of what waits changes (three queries)."""
    waiting, running = _waiting_for_you(user), _running_for_others(user)
    _read_tables([*waiting.your_turn, *waiting.invitations, *running.rows])
    return waiting, running


def home(user: User) -> Home:
    """What the signed-in home page shows ``user`` (five queries, whatever they have)."""
    waiting, running = _waiting_for_you(user), _running_for_others(user)
    open_seats, results = _open_seats_for(user), _recent_results(user)
    _read_tables([*waiting.your_turn, *waiting.invitations, *running.rows, *open_seats, *results])
    return Home(waiting=waiting, running=running, open_seats=open_seats, results=results)
