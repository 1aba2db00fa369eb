"""Every write to matches goes through here: views, consumers, the API and bots alike.

Each service runs in one transaction that locks the match row first, so two moves
can never interleave. Side effects (the doorbell, bot turns, "match finished") are
handed to ``games.effects``, which runs them after the commit: nothing is announced
that did not happen. Every
failure is a ``MatchError`` with a stable ``code`` and a message for people, and
leaves the database as it was.
"""

from __future__ import annotations

import random
import secrets
import unicodedata
import uuid
from dataclasses import dataclass
from typing import Any, Literal

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games import effects
from games.bots import AVAILABLE_LEVELS, choose_action
from games.engine import IllegalAction, get
from games.engine.options import parse_options
from games.engine.ranking import competition_ranks
from games.errors import ErrorCode
from games.inputs import BadInput, check_text
from games.models import TURN_LIMITS, ChatMessage, Match, Move, Seat
from games.selectors import bot_seat_owing

# The account that plays a level: created by accounts' 0002 data migration.
BOT_USERNAMES = {level: f"bot-{level}" for level in ("random", "basic", "expert")}
# Who plays a seat whose player resigned (the autopilot).
AUTOPILOT_LEVEL = "basic"


class MatchError(Exception):
    """A request the match cannot take. ``str(error)`` is shown to the player as is."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class SeatRequest:
    """One seat as the lobby asks for it."""

    kind: Literal["me", "open", "invite", "bot"]
    username: str = ""  # for "invite"
    level: str = ""  # for "bot"


@dataclass(frozen=True)
class SubmitResult:
    ply: int  # the match's ply after the move
    duplicate: bool = False  # True when this action id had already been played


# -- creating and filling matches ----------------------------------------------


def _engine(slug: str) -> Any:
    try:
        return get(slug)
    except IllegalAction:
        raise MatchError(ErrorCode.NO_SUCH_GAME, "There is no such game.") from None


def _locked_match(match_id: int) -> Match:
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    if match is None:
        raise MatchError(ErrorCode.NO_SUCH_MATCH, "There is no such match.")
    return match


def _bot_user(level: str) -> User:
    if level not in AVAILABLE_LEVELS:
        raise MatchError(ErrorCode.NO_SUCH_BOT, f"There is no {level!r} bot to play with yet.")
    return User.objects.get(username=BOT_USERNAMES[level], is_bot=True)


@dataclass(frozen=True)
class PlacedSeat:
    """A seat of a new match: its player (None: open), and whether they sit already
    (False: an invitation waiting for an answer)."""

    user: User | None
    joined: bool


@transaction.atomic
def match_create(
    *,
    creator: User,
    game_slug: str,
    options: dict[str, Any] | None,
    seats: list[SeatRequest],
    visibility: str = Match.Visibility.PUBLIC,
    turn_limit: int | None = None,
) -> Match:
    """A new match with ``creator`` in the seat marked "me"; it starts at once if every seat is taken."""
    if creator.is_bot or not creator.is_active:
        raise MatchError(ErrorCode.NOT_ALLOWED, "This account cannot create matches.")
    kinds = [request.kind for request in seats]
    # The creator plays, or watches a table of bots; nobody runs a match they are not in.
    if kinds.count("me") > 1 or (kinds.count("me") == 0 and set(kinds) != {"bot"}):
        raise MatchError(
            ErrorCode.SEAT_YOURSELF, "Take one seat yourself, or fill every seat with bots to watch them."
        )
    _engine(game_slug)  # an unknown game is named as such before its seats are read
    placed: list[PlacedSeat] = []
    invited: set[str] = set()
    for request in seats:
        if request.kind == "me":
            placed.append(PlacedSeat(creator, joined=True))
        elif request.kind == "open":
            placed.append(PlacedSeat(None, joined=False))
        elif request.kind == "bot":
            placed.append(PlacedSeat(_bot_user(request.level), joined=True))
        elif request.kind == "invite":
            username = request.username.strip()
            guest = User.objects.filter(username__iexact=username, is_active=True, is_bot=False).first()
            if guest is None:
                raise MatchError(ErrorCode.NO_SUCH_PLAYER, f"There is no player called {username[:40]!r}.")
            if guest.pk == creator.pk or guest.username in invited:
                raise MatchError(ErrorCode.INVITED_TWICE, f"{guest.public_name} can only take one seat.")
            invited.add(guest.username)
            placed.append(PlacedSeat(guest, joined=False))
        else:
            raise MatchError(
                ErrorCode.BAD_SEAT, "Each seat is you, an open seat, an invited player or a bot."
            )
    return match_create_seated(
        created_by=creator,
        game_slug=game_slug,
        options=options,
        seats=placed,
        visibility=visibility,
        turn_limit=turn_limit,
    )


@transaction.atomic
def match_create_seated(
    *,
    created_by: User,
    game_slug: str,
    options: dict[str, Any] | None,
    seats: list[PlacedSeat],
    visibility: str = Match.Visibility.PRIVATE,
    turn_limit: int | None = None,
) -> Match:
    """A new match with exactly these seats, in this order: people and bots, seated or
    invited, no seat for the creator required (a tournament seats its tables so). It
    starts at once when every seat is taken. Checked like every match: the player count,
    the options, the visibility, the time control; each person at most once."""
    game = _engine(game_slug)
    if not game.min_players <= len(seats) <= game.max_players:
        raise MatchError(
            ErrorCode.BAD_PLAYER_COUNT,
            f"{game.name} is played by {game.min_players} to {game.max_players} players.",
        )
    people = [seat.user.pk for seat in seats if seat.user is not None and not seat.user.is_bot]
    if len(people) != len(set(people)):
        raise MatchError(ErrorCode.INVITED_TWICE, "A person can only take one seat.")
    if visibility not in Match.Visibility.values:
        raise MatchError(ErrorCode.BAD_VISIBILITY, "A match is either public or private.")
    if turn_limit not in [limit for limit, _ in TURN_LIMITS]:
        raise MatchError(ErrorCode.BAD_TURN_LIMIT, "Pick one of the offered time controls.")
    try:
        parsed = parse_options(game.options, options)
        game.new(len(seats), 0, parsed)  # catches combinations only the game knows (variant vs players)
    except IllegalAction as error:
        raise MatchError(error.code, str(error)) from None

    now = timezone.now()
    match = Match.objects.create(
        game=game.slug, options=parsed, visibility=visibility, turn_limit=turn_limit, created_by=created_by
    )
    Seat.objects.bulk_create(
        Seat(match=match, index=index, user=seat.user, joined_at=now if seat.joined else None)
        for index, seat in enumerate(seats)
    )
    _start_if_full(match)
    effects.match_changed(match)
    return match


def match_join(*, match_id: int, user: User, invite: str | None = None) -> Match:
    """Take the seat ``user`` was invited to, or else the first open one. A private
    match's open seat is taken only with its invitation link (``invite``, its token)."""
    with transaction.atomic():
        match = _locked_match(match_id)
        if user.is_bot:
            raise MatchError(ErrorCode.NOT_ALLOWED, "Bots are seated by the match's creator.")
        seats = list(match.seats.all())
        mine = next((seat for seat in seats if seat.user_id == user.pk), None)
        if not match.is_public and mine is None and not match.invite_matches(invite):
            # The same answer as for a match that does not exist: ids are guessable.
            raise MatchError(ErrorCode.NO_SUCH_MATCH, "There is no such match.")
        if match.status != Match.Status.OPEN:
            raise MatchError(ErrorCode.NOT_OPEN, "This match is not waiting for players any more.")
        if mine is not None and mine.joined_at is not None:
            raise MatchError(ErrorCode.ALREADY_SEATED, "You already have a seat in this match.")
        if mine is None:
            mine = next((seat for seat in seats if seat.user_id is None), None)
            if mine is None:
                raise MatchError(ErrorCode.MATCH_FULL, "Every seat in this match is taken.")
            mine.user = user
        mine.joined_at = timezone.now()
        mine.save(update_fields=["user", "joined_at"])
        _start_if_full(match)
        effects.match_changed(match)
    return match


def match_decline(*, match_id: int, user: User) -> Match:
    """Turn down an invitation: the seat becomes open for anyone with the link."""
    with transaction.atomic():
        match = _locked_match(match_id)
        seat = match.seats.filter(user=user, joined_at__isnull=True).first()
        if match.status != Match.Status.OPEN or seat is None:
            raise MatchError(ErrorCode.NOT_INVITED, "You have no invitation to this match.")
        seat.user = None
        seat.save(update_fields=["user"])
        effects.match_changed(match)
    return match


def match_leave(*, match_id: int, user: User) -> Match:
    """Leave a match before it starts; the creator leaving cancels it."""
    with transaction.atomic():
        match = _locked_match(match_id)
        seat = match.seats.filter(user=user, joined_at__isnull=False).first()
        if match.status != Match.Status.OPEN or seat is None:
            raise MatchError(
                ErrorCode.NOT_SEATED, "You can only leave a match you joined that has not started."
            )
        if match.created_by_id == user.pk:
            match.status = Match.Status.CANCELLED
            match.finished_at = timezone.now()
            match.save(update_fields=["status", "finished_at", "updated_at"])
        else:
            seat.user = None
            seat.joined_at = None
            seat.save(update_fields=["user", "joined_at"])
        effects.match_changed(match)
    return match


def _start_if_full(match: Match) -> None:
    seats = list(match.seats.select_related("user"))
    if any(seat.joined_at is None for seat in seats):
        return
    # Names are fixed for the match: a player renaming mid-game changes nothing at the table.
    for seat in seats:
        seat.display_name = seat.public_name
    Seat.objects.bulk_update(seats, ["display_name"])
    game = match.engine
    # 256 bits: the keyed generator's secrecy is the seed's (games/engine/rng.py).
    match.seed = secrets.randbits(256)
    match.generator = "keyed"
    match.status = Match.Status.RUNNING
    match.started_at = timezone.now()
    _store_state(match, seats, game.new(len(seats), match.seed, match.options, generator=match.generator))
    match.save()


# -- playing ---------------------------------------------------------------------


def _parse_ply(ply: Any) -> int:
    if type(ply) is not int or ply < 0:
        raise MatchError(
            ErrorCode.BAD_PLY, "Say which position you are moving from (the ply, a whole number)."
        )
    return ply


def _parse_action_id(action_id: Any) -> uuid.UUID | None:
    if action_id is None or action_id == "":
        return None
    try:
        return uuid.UUID(str(action_id))
    except ValueError:
        raise MatchError(ErrorCode.BAD_ACTION_ID, "The action id must be a UUID.") from None


def match_submit_action(
    *, match_id: int, user: User, action: Any, ply: Any, action_id: Any = None
) -> SubmitResult:
    """``user`` plays ``action`` in their seat, if the match is still at ``ply``.

    A resent ``action_id`` (a retry after a lost answer) returns the first answer
    instead of failing or playing twice.
    """
    ply = _parse_ply(ply)
    move_id = _parse_action_id(action_id)
    with transaction.atomic():
        match = _locked_match(match_id)
        if move_id is not None:
            earlier = Move.objects.filter(match=match, action_id=move_id).first()
            if earlier is not None:
                if earlier.user_id != user.pk:
                    raise MatchError(ErrorCode.ACTION_ID_TAKEN, "That action id was used for another move.")
                return SubmitResult(ply=earlier.ply + 1, duplicate=True)
        seat = match.seats.filter(user=user, joined_at__isnull=False).first()
        if seat is None or user.is_bot:
            raise MatchError(ErrorCode.NOT_YOUR_SEAT, "You are not playing in this match.")
        if seat.forfeited_at is not None:
            raise MatchError(ErrorCode.RESIGNED, "You resigned from this match.")
        return _play(match, seat.index, action, ply, user=user, action_id=move_id)


def match_play_for_seat(*, match_id: int, seat_index: int, action: Any, ply: Any) -> SubmitResult:
    """A bot's or the autopilot's move for a seat it plays (bot account, or a resigned player)."""
    ply = _parse_ply(ply)
    with transaction.atomic():
        match = _locked_match(match_id)
        seat = match.seats.select_related("user").filter(index=seat_index).first()
        if seat is None or not seat.played_by_bot:
            raise MatchError(ErrorCode.NOT_A_BOT_SEAT, "That seat is not played by a bot.")
        user = seat.user if seat.forfeited_at is None else None
        return _play(match, seat_index, action, ply, user=user, action_id=None)


def bot_play_turn(*, match_id: int, ply: int) -> bool:
    """Play the decision a bot seat owes at ``ply``; False when there was nothing (left)
    to do: the match moved on, finished or is gone, or another copy played first."""
    seat = bot_seat_owing(match_id, ply)
    if seat is None:
        return False
    game = seat.match.engine
    level = AUTOPILOT_LEVEL
    if seat.forfeited_at is None and seat.user is not None and seat.user.bot_level in AVAILABLE_LEVELS:
        level = seat.user.bot_level
    # The bot decides from its seat's view alone, with a fresh random source.
    view = game.view(seat.match.decoded_state(), seat.index)
    action = choose_action(game, view, seat.index, level, random.Random(secrets.randbits(64)))
    try:
        match_play_for_seat(match_id=match_id, seat_index=seat.index, action=action, ply=ply)
    except MatchError as error:
        if error.code == "stale_ply":
            return False  # another copy of this task played first
        raise
    return True


def _play(
    match: Match, seat_index: int, action: Any, ply: int, *, user: User | None, action_id: uuid.UUID | None
) -> SubmitResult:
    if match.status == Match.Status.FINISHED:
        raise MatchError(ErrorCode.GAME_OVER, "The game is over.")
    if match.status != Match.Status.RUNNING:
        raise MatchError(ErrorCode.NOT_RUNNING, "This match has not started.")
    if ply != match.ply:
        raise MatchError(
            ErrorCode.STALE_PLY, "The game has moved on since you looked: here is the latest position."
        )
    game = match.engine
    try:
        state = game.apply(match.decoded_state(), seat_index, action)
    except IllegalAction as error:
        raise MatchError(error.code, str(error)) from None
    Move.objects.create(
        match=match, ply=match.ply, seat=seat_index, action=action, user=user, action_id=action_id
    )
    match.ply += 1
    seats = list(match.seats.select_related("user"))
    _store_state(match, seats, state)
    match.save()
    effects.match_changed(match, seats=seats)
    return SubmitResult(ply=match.ply)


def _store_state(match: Match, seats: list[Seat], state: Any) -> None:
    """Keep the new state and what is derived from it: who owes a decision, the result."""
    game = match.engine
    match.state = game.encode(state)
    waiting = set(game.to_act(state))
    for seat in seats:
        owes = seat.index in waiting
        if seat.owes_decision != owes:
            seat.owes_decision = owes
            seat.save(update_fields=["owes_decision"])
    result = game.result(state)
    if result is not None:
        _finish(match, seats, dict(result))


def _finish(match: Match, seats: list[Seat], result: dict[str, Any]) -> None:
    """Close the match. Players who resigned rank below everyone who played on."""
    resigned = [seat for seat in seats if seat.forfeited_at is not None]
    if resigned:
        result["ranks"] = _ranks_with_resignations(seats, result.get("ranks"))
        result["resigned"] = [seat.index for seat in resigned]
    scores = result.get("scores")
    for seat in seats:
        seat.rank = result["ranks"][seat.index]
        seat.score = scores[seat.index] if scores is not None else None
        seat.owes_decision = False
        seat.save(update_fields=["rank", "score", "owes_decision"])
    match.result = result
    match.status = Match.Status.FINISHED
    match.finished_at = timezone.now()
    # Once per match: only the transaction that finishes it gets here (the row is locked
    # and a finished match takes no more moves).
    effects.match_finished(match)


def _ranks_with_resignations(seats: list[Seat], engine_ranks: list[int] | None) -> list[int]:
    """Those who played on keep their order (or share first); then who resigned last, and so on."""

    def key(seat: Seat) -> tuple[int, float]:
        if seat.forfeited_at is None:
            return (0, engine_ranks[seat.index] if engine_ranks is not None else 1)
        return (1, -seat.forfeited_at.timestamp())

    return competition_ranks([key(seat) for seat in seats], higher_is_better=False)


def match_resign(*, match_id: int, user: User) -> Match:
    """Give up: the seat ranks last and the autopilot plays it, unless too few players are left."""
    with transaction.atomic():
        match = _locked_match(match_id)
        seat = match.seats.filter(user=user, joined_at__isnull=False).first()
        if match.status != Match.Status.RUNNING or seat is None:
            raise MatchError(ErrorCode.NOT_PLAYING, "You can only resign from a match you are playing.")
        if seat.forfeited_at is not None:
            raise MatchError(ErrorCode.RESIGNED, "You resigned from this match already.")
        seat.forfeited_at = timezone.now()
        seat.save(update_fields=["forfeited_at"])
        seats = list(match.seats.select_related("user"))
        playing_on = [seat for seat in seats if seat.forfeited_at is None]
        people_left = [seat for seat in playing_on if not seat.user.is_bot]  # type: ignore[union-attr]
        game = match.engine
        # Nobody left to play for, or (in a game against each other) no one left to play against.
        if not people_left or (not game.is_cooperative and len(playing_on) < 2):
            result: dict[str, Any] = {"scores": None, "ranks": None}
            if game.is_cooperative:
                result["won"] = False
            _finish(match, seats, result)
        match.save()
        effects.match_changed(match)
    return match


# -- chat ---------------------------------------------------------------------------


def chat_post(*, match_id: int, user: User, text: Any) -> ChatMessage:
    if not isinstance(text, str) or not text.strip():
        raise MatchError(ErrorCode.EMPTY_MESSAGE, "Write something first.")
    try:
        check_text(text)
    except BadInput as error:
        raise MatchError(error.code, str(error)) from None
    if any(unicodedata.category(character) == "Cc" and character not in "\n\t" for character in text):
        raise MatchError(ErrorCode.BAD_TEXT, "Messages may not contain control characters.")
    text = text.strip()
    if len(text) > ChatMessage.MAX_LENGTH:
        raise MatchError(
            ErrorCode.MESSAGE_TOO_LONG, f"A message is at most {ChatMessage.MAX_LENGTH} characters."
        )
    with transaction.atomic():
        match = _locked_match(match_id)
        seat = match.seats.filter(user=user, joined_at__isnull=False).first()
        if seat is None or user.is_bot:
            raise MatchError(ErrorCode.NOT_YOUR_SEAT, "Only the match's players can chat.")
        if match.status == Match.Status.RUNNING:
            view = match.engine.view(match.decoded_state(), seat.index)
            if seat.index in view.get("chat_closed_seats", ()):
                raise MatchError(ErrorCode.CHAT_CLOSED, "Your role keeps silent while the game runs.")
        message = ChatMessage.objects.create(match=match, user=user, author_name=seat.public_name, text=text)
        effects.chat_posted(match_id=match.pk, message_id=message.pk)
    return message
