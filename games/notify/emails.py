"""Notification emails: composed from templates, HTML and plain text, and sent from
this one place (``send``).

Every email speaks as the site (``DEFAULT_FROM_EMAIL``), links only to ``SITE_URL``,
says a machine sent it (``Auto-Submitted: auto-generated``, RFC 3834, so
out-of-office replies stay quiet) and carries a one-click unsubscribe for its own
kind (RFC 8058: ``List-Unsubscribe`` with an https link holding a signed token, and
``List-Unsubscribe-Post``, which lets a mail client turn it off with one POST).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.text import capfirst

from accounts.models import User
from games.feature_links import match_links
from games.notify import tokens
from games.notify.selectors import GameOverNews, InvitationNews, TableNews, TurnNews, Waiting

# What the unsubscribe link of each kind turns off, in words.
KIND_WORDS = {
    "turn": "“your turn” and “about to lose on time” emails",
    "alarm": "“your turn” and “about to lose on time” emails",
    "invitation": "invitation emails",
    "game_over": "“match over” emails",
    "digest": "the daily digest",
    # A table's link turns off the invitation emails, which the table emails follow.
    "table": "invitation and “your tournament table is ready” emails",
    # A tournament's start carries its first table: it follows the invitations too.
    "started": "invitation, “tournament started” and “your tournament table is ready” emails",
    # A tournament's end follows the "match over" choice.
    "ended": "“match over” and “tournament over” emails",
}


def site_link(path: str) -> str:
    return f"{settings.SITE_URL}{path}"


def unsubscribe_link(user_id: int, kind: str) -> str:
    return site_link(reverse("notify:unsubscribe", args=[tokens.make(user_id, kind)]))


def match_link(match_id: int) -> str:
    return site_link(reverse("match", args=[match_id]))


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, ..."""
    suffix = "th" if 11 <= number % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def names_in_words(names: Sequence[str]) -> str:
    """ "Bob", "Bob and Cat", "Bob, Cat and Dan"."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def compose(
    *, user: User, kind: str, subject: str, template: str, context: dict[str, Any]
) -> EmailMultiAlternatives:
    """One email to ``user`` from ``templates/notify/email/<template>.txt`` and ``.html``."""
    unsubscribe = unsubscribe_link(user.pk, kind)
    context = {
        **context,
        "user": user,
        "site_name": settings.SITE_NAME,
        "site_url": settings.SITE_URL,
        "settings_link": site_link(reverse("account_settings") + "#notifications"),
        "unsubscribe_link": unsubscribe,
        "kind_words": KIND_WORDS[kind],
    }
    message = EmailMultiAlternatives(
        subject=f"[{settings.SITE_NAME}] {subject}",
        body=render_to_string(f"notify/email/{template}.txt", context),
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[user.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",
        },
    )
    message.attach_alternative(render_to_string(f"notify/email/{template}.html", context), "text/html")
    return message


def turn_email(user: User, news: TurnNews, *, is_alarm: bool) -> EmailMultiAlternatives:
    game = news.match.game_name
    if is_alarm:
        subject = f"{capfirst(news.time_left_words)} left for your turn in {game}"
    else:
        subject = f"Your turn in {game} with {names_in_words(news.opponents)}"
    return compose(
        user=user,
        kind="alarm" if is_alarm else "turn",
        subject=subject,
        template="turn",
        context={
            "news": news,
            "is_alarm": is_alarm,
            "opponents": names_in_words(news.opponents),
            "match_link": match_link(news.match.pk),
        },
    )


def invitation_email(user: User, news: InvitationNews) -> EmailMultiAlternatives:
    return compose(
        user=user,
        kind="invitation",
        subject=f"{news.inviter} challenges you to a game of {news.match.game_name}"
        if news.is_challenge
        else f"{news.inviter} invites you to play {news.match.game_name}",
        template="invitation",
        context={
            "news": news,
            "others": names_in_words(news.others),
            "match_link": match_link(news.match.pk),
        },
    )


def table_email(
    user: User, news: TableNews, *, about: str, previous: GameOverNews | None = None
) -> EmailMultiAlternatives:
    """A tournament seated ``user`` at a new table; ``about`` is the tournament's words for
    it ("round 2 of Autumn Cup"); ``previous``: their table that ended in the same moment,
    whose "match over" this email replaces."""
    return compose(
        user=user,
        kind="table",
        subject=f"Your table is ready: {about or news.match.game_name}",
        template="table",
        context={
            "news": news,
            "about": about,
            "previous": previous,
            "previous_outcome": outcome_in_words(previous) if previous is not None else "",
            "previous_link": match_link(previous.match.pk) if previous is not None else "",
            "others": names_in_words(news.others),
            "match_link": match_link(news.match.pk),
        },
    )


def outcome_in_words(news: GameOverNews) -> str:
    """ "you placed 2nd of 4", "your team won": how the match ended for the person."""
    if news.won_together is not None:
        return f"{'your team' if news.players > 1 else 'you'} {'won' if news.won_together else 'lost'}"
    if news.rank is not None:
        return f"you placed {ordinal(news.rank)} of {news.players}"
    return "see how it ended"


def game_over_email(user: User, news: GameOverNews) -> EmailMultiAlternatives:
    outcome = outcome_in_words(news)
    return compose(
        user=user,
        kind="game_over",
        subject=f"{news.match.game_name} is over: {outcome}",
        template="game_over",
        context={
            "news": news,
            "outcome": outcome,
            "standings": [(ordinal(rank) if rank else "-", name) for rank, name in news.standings],
            "match_link": match_link(news.match.pk),
            # What features offer about the match (the post-game review), as on its page.
            "links": [(link.text, site_link(link.url)) for link in match_links(news.match, user)],
        },
    )


def digest_email(user: User, waiting: list[Waiting], day: date) -> EmailMultiAlternatives:
    count = len(waiting)
    return compose(
        user=user,
        kind="digest",
        subject=f"{count} match{'es' if count != 1 else ''} waiting for you",
        template="digest",
        context={
            "day": day,
            "items": [
                {"item": item, "others": names_in_words(item.others), "link": match_link(item.match.pk)}
                for item in waiting
            ],
            "my_matches_link": site_link(reverse("my_matches")),
        },
    )


@dataclass(frozen=True)
class EventNews:
    """An email a feature composed about an event a person entered (a tournament that
    started or ended): notify knows nothing of the event and sends these words as they
    are. ``links`` are (label, path on this site), the first one the email's button;
    notify makes them whole addresses (emails link only to ``SITE_URL``)."""

    subject: str
    paragraphs: tuple[str, ...]
    links: tuple[tuple[str, str], ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {
            "subject": self.subject,
            "paragraphs": list(self.paragraphs),
            "links": [list(link) for link in self.links],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> EventNews:
        return cls(
            subject=str(data["subject"]),
            paragraphs=tuple(str(paragraph) for paragraph in data["paragraphs"]),
            links=tuple((str(label), str(path)) for label, path in data["links"]),
        )


def event_email(user: User, kind: str, news: EventNews) -> EmailMultiAlternatives:
    return compose(
        user=user,
        kind=kind,
        subject=news.subject,
        template="event",
        context={
            "paragraphs": news.paragraphs,
            "links": [(label, site_link(path)) for label, path in news.links],
        },
    )


def send(message: EmailMultiAlternatives) -> None:
    """Hand the email to the mail server (``EMAIL_URL``); raises if it is refused."""
    message.send(fail_silently=False)
