"""Turn clocks on pages: the time a player has left, or why their clock is paused.

``{% turn_clock deadline clock_left person %}`` draws a seat's clock: a running one as
``<time datetime="…">2 hours 14 minutes left</time>``, which ``static/js/countdown.js``
counts down on every page; a paused one as "paused: on vacation until 14 March" (the
day in the player's own time zone). The server writes the words, so the page is right
without JavaScript, and the script writes the same words (``countdown_words``) as time
goes on.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django import template
from django.utils import timezone
from django.utils.dateformat import format as format_date
from django.utils.html import format_html

from accounts.models import User
from games import clocks

register = template.Library()


def countdown_words(left: timedelta) -> str:
    """ "2 days 3 hours left", "2 hours 14 minutes left"; in the last hour, to the
    second: "3:12 left"; at zero "time is up" (the clock sweep plays for the seat soon).

    ``static/js/countdown.js`` says the same: change both together."""
    seconds = int(left.total_seconds())
    if seconds <= 0:
        return "time is up"
    if seconds < clocks.HOUR:
        minutes, seconds = divmod(seconds, clocks.MINUTE)
        return f"{minutes}:{seconds:02d} left"
    return f"{clocks.left_in_words(left)} left"


@register.simple_tag
def turn_clock(deadline: object, clock_left: object, person: object) -> str:
    """A pending turn's clock: counting down to ``deadline``, or paused with ``clock_left``
    while ``person`` is on vacation; nothing without a clock. (Arguments a row does not
    have come as "": only real moments and durations count.)"""
    now = timezone.now()
    if isinstance(deadline, datetime):
        left = clocks.left(deadline, now) or timedelta(0)
        # Milliseconds and an offset: what both HTML's <time> and JavaScript's Date.parse read.
        moment = deadline.astimezone(UTC).isoformat(timespec="milliseconds")
        # aria-live off: inside the live board, a clock read out every second would drown the rest.
        return format_html(
            '<time class="time-left" datetime="{}" data-countdown aria-live="off">{}</time>',
            moment,
            countdown_words(left),
        )
    if isinstance(clock_left, timedelta):
        until = person.vacation_until if isinstance(person, User) else None
        if until is not None and until > now:
            # The day in the vacationer's own time zone, whoever looks: their calendar
            # says when they are back, and the live part stays one text for every viewer
            # of a kind, wherever they are (games/live/fragments.py).
            assert isinstance(person, User)
            words = f"paused: on vacation until {format_date(timezone.localtime(until, person.zone), 'j F')}"
        else:
            words = "paused"  # the vacation is over; the sweep starts the clock again shortly
        return format_html('<span class="time-left paused">{}</span>', words)
    return ""
