"""Creating matches and filling their seats, until they start."""

from __future__ import annotations

import secrets
from collections import Counter
from dataclasses import dataclass
from typing import Any, Literal

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from accounts.names import bot_seat_name
from games import blocks, clocks, effects, replays
from games.engine import IllegalAction
from games.engine.options import parse_options
from games.errors import ErrorCode, MatchError
from games.locks import lock_match
from games.models import Match, Seat
from games.services.common import bot_account, engine_for
from games.services.state import store_state


@dataclass(frozen=True)
class SeatRequest:
    """One seat as the lobby asks for it."""

    kind: Literal["me", "open", "invite", "bot"]
    username: str = ""  # for "invite"
    level: str = ""  # for "bot"


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
    game = engine_for(game_slug)  # an unknown game is named as such before its seats are read
    placed: list[PlacedSeat] = []
    invited: set[str] = set()
    for request in seats:
        if request.kind == "me":
            placed.append(PlacedSeat(creator, joined=True))
        elif request.kind == "open":
            placed.append(PlacedSeat(None, joined=False))
        elif request.kind == "bot":
            placed.append(PlacedSeat(bot_account(request.level, game), joined=True))
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
    rematch_of: Match | None = None,
    timeouts_to_forfeit: int = 3,
    vacation_allowed: bool = True,
    rated: bool = True,
) -> Match:
    """A new match with exactly these seats, in this order: people and bots, seated or
    invited, no seat for the creator required (a tournament seats its tables so). It
    starts at once when every seat is taken. Checked like every match: the player count,
    the options, the visibility, the time control; each person at most once. A tournament
    also sets how many timeouts forfeit, whether vacations pause the clocks, and whether
    the match may be rated."""
    game = engine_for(game_slug)
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
    if not clocks.is_time_control(turn_limit):
        raise MatchError(
            ErrorCode.BAD_TURN_LIMIT, "Choose no time limit, 5 minutes, 1 hour, or 1 to 14 days per turn."
        )
    if type(timeouts_to_forfeit) is not int or not 1 <= timeouts_to_forfeit <= 10:
        raise MatchError(ErrorCode.BAD_TURN_LIMIT, "A player forfeits after 1 to 10 timeouts in a row.")
    _refuse_blocked_invitations(created_by, seats)
    try:
        parsed = parse_options(game.options, options)
        game.new(len(seats), 0, parsed)  # catches combinations only the game knows (variant vs players)
    except IllegalAction as error:
        raise MatchError(error.code, str(error)) from None

    now = timezone.now()
    match = Match.objects.create(
        game=game.slug,
        options=parsed,
        visibility=visibility,
        turn_limit=turn_limit,
        created_by=created_by,
        rematch_of=rematch_of,
        timeouts_to_forfeit=timeouts_to_forfeit,
        vacation_allowed=vacation_allowed,
        rated=rated,
    )
    Seat.objects.bulk_create(
        Seat(
            match=match,
            index=index,
            user=seat.user,
            joined_at=now if seat.joined else None,
            display_name=name,
        )
        for index, (seat, name) in enumerate(zip(seats, _bot_seat_names(seats), strict=True))
    )
    _start_if_full(match)
    effects.match_changed(match)
    return match


def _refuse_blocked_invitations(created_by: User, seats: list[PlacedSeat]) -> None:
    """Nobody is invited by a person they blocked or who blocked them (``games/blocks.py``):
    a lobby's invitation, a challenge or a rematch alike. Seats filled at once (a
    tournament's tables) are no invitation: they are made whoever blocked whom."""
    invited = [seat.user for seat in seats if seat.user is not None and not seat.joined]
    if not invited:
        return
    kept_away = blocks.blocked_with(created_by.pk)
    for guest in invited:
        if guest.pk in kept_away:
            raise MatchError(
                ErrorCode.BLOCKED, f"You cannot invite {guest.public_name}: one of you has blocked the other."
            )


def match_rematch(*, match_id: int, user: User) -> Match:
    """The finished match again: the same game, options, time control, visibility and
    players in the same seats; ``user`` sits, the other people are invited, bots join.
    One rematch per match: whoever asks second is sent to the first one's (and sits
    down in it, accepting their invitation)."""
    original = Match.objects.filter(pk=match_id).first()
    if original is None:
        raise MatchError(ErrorCode.NO_SUCH_MATCH, "There is no such match.")
    seats = list(original.seats.select_related("user").order_by("index"))
    if original.status != Match.Status.FINISHED or not any(seat.user_id == user.pk for seat in seats):
        raise MatchError(ErrorCode.NOT_ALLOWED, "Only the players of a finished match can ask for a rematch.")
    existing = Match.objects.filter(rematch_of=original).first()
    if existing is None:
        placed = [
            PlacedSeat(seat.user, joined=seat.user_id == user.pk or bool(seat.user and seat.user.is_bot))
            for seat in seats
        ]
        try:
            with transaction.atomic():
                return match_create_seated(
                    created_by=user,
                    game_slug=original.game,
                    options=original.options,
                    seats=placed,
                    visibility=original.visibility,
                    turn_limit=original.turn_limit,
                    rematch_of=original,
                    timeouts_to_forfeit=original.timeouts_to_forfeit,
                    vacation_allowed=original.vacation_allowed,
                    rated=original.rated,
                )
        except IntegrityError:
            # Another player's rematch was created in the same instant: theirs it is.
            existing = Match.objects.get(rematch_of=original)
    mine = existing.seats.filter(user=user, joined_at__isnull=True).exists()
    return match_join(match_id=existing.pk, user=user) if mine else existing


def _bot_seat_names(seats: list[PlacedSeat]) -> list[str]:
    """Each bot seat's name for the whole match; "" for a person's seat, named when the match starts.

    A bot seated once is shown by its own name; a bot seated several times (two Basic
    bots) gets a letter per seat, in seat order ("Basic Bot A", "Basic Bot B"), so that
    the log and the standings tell them apart while still saying the level. A bot joins
    at once, so its name is fixed when the match is created (a person's when it starts).
    """
    seated = Counter(seat.user.pk for seat in seats if seat.user is not None and seat.user.is_bot)
    lettered: Counter[int] = Counter()
    names = []
    for seat in seats:
        bot = seat.user
        if bot is None or not bot.is_bot:
            names.append("")
        elif seated[bot.pk] == 1:
            names.append(bot.public_name)
        else:
            names.append(bot_seat_name(bot.public_name, lettered[bot.pk]))
            lettered[bot.pk] += 1
    return names


def match_join(*, match_id: int, user: User, invite: str | None = None) -> Match:
    """Take the seat ``user`` was invited to, or else the first open one. A private
    match's open seat is taken only with its invitation link (``invite``, its token)."""
    with transaction.atomic():
        match = lock_match(match_id)
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
            # An open seat is no way round a block with the match's maker (games/blocks.py).
            if match.created_by_id in blocks.blocked_with(user.pk):
                raise MatchError(
                    ErrorCode.BLOCKED,
                    f"You cannot join {match.created_by.public_name}'s match: one of you has blocked the other.",
                )
            mine.user = user
        mine.joined_at = timezone.now()
        mine.save(update_fields=["user", "joined_at"])
        _start_if_full(match)
        effects.match_changed(match)
    return match


def match_decline(*, match_id: int, user: User) -> Match:
    """Turn down an invitation: the seat becomes open for anyone with the link."""
    with transaction.atomic():
        match = lock_match(match_id)
        seat = match.seats.filter(user=user, joined_at__isnull=True).first()
        if match.status != Match.Status.OPEN or seat is None:
            raise MatchError(ErrorCode.NOT_INVITED, "You have no invitation to this match.")
        seat.user = None
        seat.save(update_fields=["user"])
        effects.match_changed(match, left=user)
    return match


def match_leave(*, match_id: int, user: User) -> Match:
    """Leave a match before it starts; the creator leaving cancels it."""
    with transaction.atomic():
        match = lock_match(match_id)
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
    """Start the match once every seat is taken: the seed, the first state, fixed seat
    names. Call with the match row locked (``games/locks.py``)."""
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
    match.seed_salt = secrets.token_hex(16)
    match.seed_commitment = replays.commitment(match.seed, match.seed_salt)
    match.generator = "keyed"
    match.status = Match.Status.RUNNING
    match.started_at = timezone.now()
    store_state(match, seats, game.new(len(seats), match.seed, match.options, generator=match.generator))
    match.save()
