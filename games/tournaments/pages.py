"""A tournament's page and the list, put together: the rows from ``selectors.tournament_rows`` (a
fixed number of queries), shaped by ``cards`` (tables, standings, the bracket's boxes, drawn
by the pure ``bracket_drawing``), with what depends on the viewer (their entry, their
table, whether they may register).

The page builds the format's state from the same rows it shows
(``selectors.state_from_rows``, which ``format_state`` uses on its own reads; a test
holds the two equal).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from django.utils import timezone

from games import clocks
from games.boards.option_words import options_in_words
from games.engine import IllegalAction, get
from games.tournaments import cards, formats, selectors
from games.tournaments.cards import (
    Bracket,
    Entrant,
    RoundCard,
    StandingRow,
    TableCard,
    format_in_words,
    out_in_words,
)
from games.tournaments.models import Entry, Tournament
from games.tournaments.services import registration_is_open
from games.tournaments.setup import format_settings


class NotShown(Exception):
    """No such tournament, or one still being set up and the viewer is not staff."""


def shown_tournament(tournament_id: int, viewer: Any) -> Tournament:
    """The tournament, if ``viewer`` may see it: anyone, once it is published; staff,
    while it is being set up (to check its page before opening it)."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        raise NotShown
    if tournament.status == Tournament.Status.DRAFT and not getattr(viewer, "is_staff", False):
        raise NotShown
    return tournament


@dataclass(frozen=True)
class TournamentPage:
    tournament: Tournament
    game_name: str
    format_words: str
    options: list[dict[str, str]]
    time_control: str
    rules: list[str]
    entrants: list[Entrant]  # the field: by seed once seeded, else in the order they registered
    my_entry: Entry | None  # the viewer's entry, if it counts (registered, not withdrawn before the start)
    my_table: TableCard | None  # the viewer's table in the latest round, while they sit at one
    registration: str  # "open", "later" (not open yet) or "closed"
    can_register: bool
    can_withdraw: bool
    is_full: bool
    rounds: list[RoundCard]
    standings: list[StandingRow] = field(default_factory=list)
    standing_tiebreaks: list[str] = field(default_factory=list)
    bracket: Bracket | None = None
    winners: list[Entry] = field(default_factory=list)

    @property
    def is_elimination(self) -> bool:
        return self.tournament.format == Tournament.Format.SINGLE_ELIMINATION

    @property
    def rounds_played(self) -> int:
        return sum(1 for round_ in self.rounds if round_.is_finished)

    @property
    def round_in_play(self) -> RoundCard | None:
        """The latest round while its tables are being played."""
        return self.rounds[-1] if self.rounds and not self.rounds[-1].is_finished else None


def tournament_page(tournament_id: int, viewer: Any) -> TournamentPage:
    """Raises ``NotShown`` for a tournament the viewer may not see."""
    tournament = shown_tournament(tournament_id, viewer)
    rows = selectors.tournament_rows(tournament)
    entries, tables_of = rows.entries, rows.tables_of
    by_id = {entry.pk: entry for entry in entries}
    state = rows.state()
    game = get(tournament.game)
    my_entry = _entry_of(viewer, entries)
    now = timezone.now()
    is_open = registration_is_open(tournament, now)
    is_full = sum(1 for entry in entries if entry.withdrawn_at is None) >= tournament.max_entrants
    # Signed out, the button leads to the login; a bot's account never registers.
    may_enter = not getattr(viewer, "is_bot", False)
    round_cards = [cards.round_card(round_, tables_of[round_.pk], by_id) for round_ in rows.rounds]
    page = TournamentPage(
        tournament=tournament,
        game_name=game.name,
        format_words=format_in_words(tournament),
        options=options_in_words(game, cards.options_played(game, tournament.options)),
        time_control=clocks.describe(tournament.turn_limit),
        rules=formats.rules_text(format_settings(tournament)),
        entrants=[Entrant(entry, out_in_words(entry)) for entry in cards.field_of(entries)],
        my_entry=my_entry,
        my_table=cards.table_of(my_entry, round_cards)
        if tournament.status == Tournament.Status.RUNNING
        else None,
        registration="open" if is_open else "later" if now < tournament.registration_opens_at else "closed",
        can_register=is_open and not is_full and my_entry is None and may_enter,
        can_withdraw=my_entry is not None and not my_entry.out and not tournament.is_over,
        is_full=is_full,
        rounds=round_cards,
    )
    if not state.seeds:
        return page
    standings = formats.standings(state)
    winners = cards.winners(tournament, standings, by_id)
    names = [name for name, _ in standings[0].tiebreaks] if standings else []
    if page.is_elimination:
        columns = formats.bracket(state)
        bracket = cards.bracket(columns, rows.rounds, tables_of, by_id, tournament)
        return replace(
            page,
            bracket=bracket,
            standings=cards.elimination_rows(tournament, standings, by_id, round_cards, len(columns)),
            standing_tiebreaks=names,
            winners=winners,
        )
    rows_shown = cards.standing_rows(tournament, standings, by_id, round_cards)
    return replace(page, standings=rows_shown, standing_tiebreaks=names, winners=winners)


def _entry_of(viewer: Any, entries: list[Entry]) -> Entry | None:
    if not getattr(viewer, "is_authenticated", False):
        return None
    for entry in entries:
        if entry.user_id == viewer.pk and entry.bot_number is None and entry.withdrawn_at is None:
            return entry
    # Withdrawn while it ran: still in the field, out of it; they may see that (no new entry).
    for entry in entries:
        if entry.user_id == viewer.pk and entry.bot_number is None and entry.out:
            return entry
    return None


# -- the list ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ListedTournament:
    tournament: Tournament
    game_name: str
    format_words: str
    entrants: int
    is_registration_open: bool
    opens_later: bool  # registration has not opened yet
    is_mine: bool  # the viewer counts among its entrants
    winners: list[Entry]


@dataclass(frozen=True)
class Listing:
    upcoming: list[ListedTournament]
    running: list[ListedTournament]
    finished: list[ListedTournament]


def listing(viewer: Any) -> Listing:
    """``selectors.tournament_listing`` with what the list page adds: whether registration
    is open now, the viewer's own entries, and the winners of those over (a few queries
    for the whole list)."""
    now = timezone.now()
    shown = selectors.tournament_listing()
    mine = selectors.entered_by(viewer.pk) if getattr(viewer, "is_authenticated", False) else set()
    winners = winners_of(
        [tournament for tournament in shown.finished if tournament.status == Tournament.Status.FINISHED]
    )

    def listed(tournament: Tournament) -> ListedTournament:
        return ListedTournament(
            tournament=tournament,
            game_name=_game_name(tournament.game),
            format_words=format_in_words(tournament),
            entrants=int(getattr(tournament, "entrants", 0)),
            is_registration_open=registration_is_open(tournament, now),
            opens_later=now < tournament.registration_opens_at,
            is_mine=tournament.pk in mine,
            winners=winners.get(tournament.pk, []),
        )

    return Listing(
        upcoming=[listed(tournament) for tournament in shown.upcoming],
        running=[listed(tournament) for tournament in shown.running],
        finished=[listed(tournament) for tournament in shown.finished],
    )


def _game_name(slug: str) -> str:
    try:
        return get(slug).name
    except IllegalAction:
        return slug


def winners_of(tournaments: list[Tournament]) -> dict[int, list[Entry]]:
    """Each finished tournament's winners (first place in its final standings), in three
    queries for all of them."""
    if not tournaments:
        return {}
    entries, rounds, tables_of = selectors.finished_rows([tournament.pk for tournament in tournaments])
    winners: dict[int, list[Entry]] = {}
    for tournament in tournaments:
        state = selectors.state_from_rows(
            tournament, entries[tournament.pk], rounds[tournament.pk], tables_of
        )
        if not state.seeds:
            continue
        by_id = {entry.pk: entry for entry in entries[tournament.pk]}
        winners[tournament.pk] = cards.winners(tournament, formats.standings(state), by_id)
    return winners
