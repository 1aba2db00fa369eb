"""The words of each push: what the phone shows, short, from the person's own seat view
(the same news the emails tell: ``selectors``), and where a tap leads.

A push is a JSON object the service worker (static/js/service_worker.js) shows as it is:

- ``title``, ``body``: the notification's two lines (a phone shows the body cut short);
- ``url``: the match page's path on this site; a tap opens it (or the tab that has it);
- ``tag``: ``match-<id>``, so a newer push about a match replaces the older on the
  device rather than piling up (the Web Push ``Topic`` header does the same while it
  waits at the push service: ``topic``);
- ``kind``: turn, alarm, invitation or table.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.urls import reverse
from django.utils.text import capfirst

from games.models import Match, Seat
from games.notify import selectors
from games.notify.emails import names_in_words

# What a phone shows of a body is two or three lines; a longer one is cut here.
BODY_MAX = 180


def tag_of(match_id: int) -> str:
    """The notification's tag and the push's ``Topic`` (RFC 8030: at most 32 characters
    of base64url's alphabet): one per match, so the newest push about it is the one kept."""
    return f"match-{match_id}"


def _message(kind: str, match: Match, title: str, body: str) -> dict[str, Any]:
    if len(body) > BODY_MAX:
        body = body[: BODY_MAX - 1].rstrip() + "…"
    return {
        "kind": kind,
        "title": title,
        "body": body,
        "url": reverse("match", args=[match.pk]),
        "tag": tag_of(match.pk),
    }


def _with(names: list[str]) -> str:
    return f"With {names_in_words(names)}." if names else "On your own."


def turn_message(seat: Seat, now: datetime, *, is_alarm: bool) -> dict[str, Any]:
    """ "Your turn in Go Fox!", the newest thing that happened as the seat saw it, who
    else plays and the time left; or, for the alarm, how little time is left."""
    news = selectors.turn_news(seat, now)
    game = news.match.game_name
    if is_alarm:
        title = f"{capfirst(news.time_left_words)} left for your turn in {game}"
        body = f"{_with(news.opponents)} When the time runs out, the autopilot plays for you."
        return _message("alarm", news.match, title, body)
    latest = f"{news.happened[-1]}. " if news.happened else ""
    left = "No time limit." if news.time_left is None else f"{capfirst(news.time_left_words)} left."
    return _message("turn", news.match, f"Your turn in {game}", f"{latest}{_with(news.opponents)} {left}")


def invitation_message(seat: Seat) -> dict[str, Any]:
    """ "Ann invites you to play Go Fox!": an invitation, or a challenge (a match made for
    the person, with their seat waiting for them)."""
    news = selectors.invitation_news(seat)
    others = f" with {names_in_words(news.others)}" if news.others else ""
    body = f"{news.time_control}{others}. Open it to accept or decline."
    return _message(
        "invitation", news.match, f"{news.inviter} invites you to play {news.match.game_name}", body
    )


def table_message(seat: Seat, *, title: str) -> dict[str, Any]:
    """A tournament table the person was seated at: ``title`` is the feature's words
    ("Your table is ready: round 2 of Autumn Cup")."""
    news = selectors.table_news(seat)
    others = f" with {names_in_words(news.others)}" if news.others else ""
    turn = " It is your turn." if news.is_my_turn else ""
    body = f"{news.match.game_name}{others}, {news.time_control.lower()}.{turn}"
    return _message("table", news.match, title, body)
