"""The "your table is ready" emails of a new round, through the person's email
preferences (games/notify: the invitation choice; ``Notice`` rows make each once)."""

from __future__ import annotations

from games.models import Seat
from games.notify.services import NoticeOutcome, table_ready_notice
from games.tournaments.models import Round, Tournament


def round_seated_emails(*, round_id: int) -> int:
    """Tell each person (bots get nothing) seated at the round's tables that their table
    is ready. Safe to run again: a table already told sends nothing. A tournament
    cancelled meanwhile tells nobody: its tables play on as ordinary matches. Returns
    how many emails were sent now."""
    round_ = Round.objects.select_related("tournament").filter(pk=round_id).first()
    if round_ is None or round_.tournament.status != Tournament.Status.RUNNING:
        return 0
    seat_ids = (
        Seat.objects.filter(match__tournament_table__round=round_, user__is_bot=False)
        .order_by("match_id", "index")
        .values_list("pk", flat=True)
    )
    about = f"round {round_.number} of {round_.tournament.name}"  # the email's words for the table
    return sum(table_ready_notice(seat_id=seat_id, about=about) == NoticeOutcome.SENT for seat_id in seat_ids)
