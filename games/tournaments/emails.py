"""What a tournament's entrants are told by email, through their email preferences
(games/notify: a ``Notice`` row, claimed before the email is sent, makes each once):

- the **start**, to each person entered: their first table (a link to it), or their bye
  in round 1. It is round 1's "your table is ready": that one is not sent as well;
- "**your table is ready**" for each later round's tables;
- "**match over**" for each table once its result is recorded (notify leaves a
  tournament's tables to it: ``selectors.tells_match_over``), except to those whose
  next table was seated in the same moment, whose "your table is ready" says how it
  ended, and the tables whose results ended the tournament, which the end's email tells:
- the **end**, to each person entered: their place and the winner, or that it was
  cancelled and why.

Notify knows nothing of tournaments: these functions give it the words and the links.
Bots get nothing (notify's ``why_no_email``). Each runs in a Celery task queued after
the commit (``effects``), and is safe to run again: what was told sends nothing more."""

from __future__ import annotations

from collections.abc import Callable

from django.urls import reverse

from games.clocks import describe
from games.engine import IllegalAction, get
from games.models import Seat
from games.notify import services as notify
from games.notify.emails import EventNews, names_in_words, ordinal
from games.tournaments import formats, selectors
from games.tournaments.models import Entry, Round, Table, Tournament


def round_seated_emails(*, round_id: int, after_match_ids: list[int] | None = None) -> int:
    """Tell each person (bots get nothing) seated at the round's tables that their table
    is ready, and, for one whose table was among ``after_match_ids`` (the tables recorded
    in the moment that seated this round), how that one ended: its "match over" is not
    sent (``tables_over_emails``). Safe to run again: a table already told sends nothing.
    A tournament cancelled meanwhile tells nobody: its tables play on as ordinary
    matches. Returns how many emails were sent now."""
    round_ = Round.objects.select_related("tournament").filter(pk=round_id).first()
    if round_ is None or round_.tournament.status != Tournament.Status.RUNNING:
        return 0
    seats = (
        Seat.objects.filter(match__tournament_table__round=round_, user__is_bot=False)
        .order_by("match_id", "index")
        .values_list("pk", "user_id")
    )
    previous = dict(
        Seat.objects.filter(match_id__in=after_match_ids or [], user__is_bot=False).values_list(
            "user_id", "match_id"
        )
    )
    about = f"round {round_.number} of {round_.tournament.name}"  # the email's words for the table
    sent = (
        notify.table_ready_notice(seat_id=seat_id, about=about, after_match_id=previous.get(user_id))
        for seat_id, user_id in seats
    )
    return sum(outcome == notify.NoticeOutcome.SENT for outcome in sent)


def tables_over_emails(*, match_ids: list[int], next_round_id: int | None = None) -> int:
    """The usual "match over" emails of tables whose results were recorded (or of a
    cancelled tournament's tables, played on as ordinary matches), except to the people
    seated in ``next_round_id``, the round seated in the same moment: their "your table
    is ready" says how their match ended (``round_seated_emails``). Returns how many
    were sent now."""
    seated = set(
        Seat.objects.filter(match__tournament_table__round_id=next_round_id).values_list("user_id", flat=True)
        if next_round_id is not None
        else []
    )
    return sum(notify.game_over_emails(match_id=match_id, next_table_tells=seated) for match_id in match_ids)


def _event(tournament: Tournament) -> str:
    return f"tournament {tournament.pk}"


def _page(tournament: Tournament) -> str:
    return reverse("tournaments:detail", args=[tournament.pk])


def _people(tournament: Tournament) -> list[Entry]:
    """The people who entered (not bots), as the standings count them: a withdrawal
    before the start gives the place back, one during the tournament still counts."""
    return list(
        tournament.entries.filter(user__is_bot=False, bot_number__isnull=True)
        .exclude(withdrawn_at__isnull=False, out="")
        .select_related("user")
        .order_by("pk")
    )


def _game_name(tournament: Tournament) -> str:
    try:
        return get(tournament.game).name
    except IllegalAction:
        return tournament.game


# -- the start ----------------------------------------------------------------------------


def tournament_started_emails(*, tournament_id: int) -> int:
    """Tell each person entered that the tournament started, with their first table (or
    their bye in round 1). Once per person (the notice's key): running it again sends
    nothing. Nothing once the tournament is over: its end's email says it all. Returns
    how many were sent now."""
    tournament = Tournament.objects.filter(pk=tournament_id, status=Tournament.Status.RUNNING).first()
    round_1 = Round.objects.filter(tournament_id=tournament_id, number=1).first()
    if tournament is None or round_1 is None:
        return 0
    people = _people(tournament)
    entrants = tournament.entries.filter(seed__isnull=False).count()
    names = dict(tournament.entries.values_list("pk", "display_name"))
    table_of = {
        entry_id: table for table in Table.objects.filter(round=round_1) for entry_id in table.entries
    }
    sent = 0
    for entry in people:
        news = _start_news(tournament, entrants, entry, table_of.get(entry.pk), names, set(round_1.byes))
        outcome = notify.event_notice(
            user_id=entry.user_id, kind=notify.Kind.STARTED, event=_event(tournament), news=news
        )
        sent += outcome == notify.NoticeOutcome.SENT
    return sent


def _start_news(
    tournament: Tournament,
    entrants: int,
    entry: Entry,
    table: Table | None,
    names: dict[int, str],
    byes: set[int],
) -> EventNews:
    opening = f"{tournament.name} ({_game_name(tournament)}) has started, with {entrants} entrants."
    page = ("See the tournament", _page(tournament))
    if table is None:
        if entry.pk in byes:
            words = "a bye in round 1"
            news = "You have a bye in round 1: you play no table this round. We will email you when your next table is ready."
        else:
            words = "no table in round 1"
            news = "You play no table in round 1. We will email you when your next table is ready."
        return EventNews(
            subject=f"{tournament.name} has started: you have {words}",
            paragraphs=(opening, news),
            links=(page,),
        )
    others = [names.get(other, "?") for other in table.entries if other != entry.pk]
    return EventNews(
        subject=f"{tournament.name} has started: your table is ready",
        paragraphs=(
            opening,
            f"Your first table is ready: round 1, table {table.number}, with {names_in_words(others)} "
            f"({describe(tournament.turn_limit).lower()}).",
            "The clocks are running: a turn not taken in time is played for you, and "
            f"{tournament.timeouts_to_forfeit} such turns in a row forfeit the match and put you out of the tournament.",
        ),
        links=(("Go to your table", reverse("match", args=[table.match_id])), page),
    )


# -- the end ------------------------------------------------------------------------------


def tournament_ended_emails(*, tournament_id: int, last_match_ids: list[int]) -> int:
    """Tell each person entered that the tournament is over: their place and the winner,
    or that it was cancelled and why. ``last_match_ids``: the tables whose results ended
    it; their people read in the same email how that match ended (they get no separate
    "match over"). Once per person (the notice's key). Returns how many were sent now."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None or not tournament.is_over:
        return 0
    people = _people(tournament)
    if tournament.status == Tournament.Status.CANCELLED:
        news_of = _cancelled_news(tournament)
    else:
        news_of = _finished_news(tournament, last_match_ids)
    sent = 0
    for entry in people:
        outcome = notify.event_notice(
            user_id=entry.user_id, kind=notify.Kind.ENDED, event=_event(tournament), news=news_of(entry)
        )
        sent += outcome == notify.NoticeOutcome.SENT
    return sent


def _cancelled_news(tournament: Tournament) -> Callable[[Entry], EventNews]:
    paragraphs = [f"{tournament.name} was cancelled: {tournament.cancelled_because}"]
    if tournament.started_at is not None:
        paragraphs.append("Tables still being played go on as ordinary matches.")
    news = EventNews(
        subject=f"{tournament.name} was cancelled",
        paragraphs=tuple(paragraphs),
        links=(("See the tournament", _page(tournament)),),
    )
    return lambda entry: news


def _finished_news(tournament: Tournament, last_match_ids: list[int]) -> Callable[[Entry], EventNews]:
    standings = formats.standings(selectors.format_state(tournament))
    names = dict(tournament.entries.values_list("pk", "display_name"))
    place_of = {standing.entrant: standing.place for standing in standings}
    winners = names_in_words([names[standing.entrant] for standing in standings if standing.place == 1])
    last_table_of = {
        entry_id: table
        for table in Table.objects.filter(match_id__in=last_match_ids, round__tournament=tournament)
        .select_related("round")
        for entry_id in table.entries
    }  # fmt: skip
    page = ("See the final standings", _page(tournament))

    def news(entry: Entry) -> EventNews:
        place = place_of.get(entry.pk)
        if place == 1:
            subject = f"{tournament.name} is over: you won"
            paragraphs = [f"{tournament.name} is over, and you won it, out of {len(standings)} entrants."]
        elif place is not None:
            subject = f"{tournament.name} is over: you placed {ordinal(place)} of {len(standings)}"
            paragraphs = [f"{subject}. Won by {winners}."]
        else:
            subject = f"{tournament.name} is over"
            paragraphs = [f"{subject}. Won by {winners}."]
        if entry.out:
            how = "withdrew" if entry.out == Entry.Out.WITHDREW else "forfeited on time"
            paragraphs.append(f"You {how}{f' in round {entry.out_in_round}' if entry.out_in_round else ''}.")
        links = [page]
        table = last_table_of.get(entry.pk)
        if table is not None:
            at_table = table.place_of(entry.pk)
            result = (
                f"you placed {ordinal(at_table)} of {len(table.entries)}" if at_table else "see how it ended"
            )
            paragraphs.append(
                f"Your last match, round {table.round.number}, table {table.number}, is over: {result}."
            )
            links.append(("See your last match", reverse("match", args=[table.match_id])))
        return EventNews(subject=subject, paragraphs=tuple(paragraphs), links=tuple(links))

    return news
