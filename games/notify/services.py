"""Notification writes: the sweep acts on each due item exactly once; unsubscribing.

How one item is done exactly once (docs/site.md, "Notifications"):

1. It is found by the indexed column that makes it due: ``Seat.nudge_at`` (your turn),
   ``Seat.alarm_at`` (about to lose on time), ``User.next_digest_at`` (the digest), or
   for an invitation, among the open matches (``selectors.invitations_due``).
2. In one transaction its ``Notice`` row is written, whose unique key refuses a second
   row for the same person, match, turn and kind (or digest day), and the column is
   cleared or advanced, on condition that it still holds the value the sweep read. A
   sweep that lost a race to another, or to a move (the core recomputes the columns
   whenever a decision opens), changes nothing and sends nothing.
3. After the commit the email is sent, and the row marked ``sent``.

A sender that dies between 2 and 3 (a killed worker, a mail server that is down)
leaves its row ``claimed``: ``retry_notice`` takes it over once it is ``RETRY_AFTER``
old (one conditional UPDATE decides which sweep), and sends it then, or drops it if
what it was about is over. So no email is lost, and none is sent twice unless the
sender dies in the instant between the mail server's "accepted" and step 3's update.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Collection
from datetime import UTC, datetime, timedelta
from enum import StrEnum

from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, models, transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import NOTIFY_FIELDS, Notify, User
from accounts.services import user_notification_off
from boomsite import metrics
from games.feature_links import hook_functions
from games.live import presence
from games.models import Match, Seat
from games.notify import emails, push, selectors
from games.notify.models import Notice
from games.services import announcement_delivered

logger = logging.getLogger(__name__)

Kind = Notice.Kind
# A claimed notice not sent after this long lost its sender: well past one send (the
# SMTP backend gives up after EMAIL_TIMEOUT, 10 s), short enough to still be news.
RETRY_AFTER = timedelta(minutes=5)
MAX_ATTEMPTS = 5
# Kinds without a choice of their own follow another's: the alarm the "your turn"
# choice, a tournament table and start the invitations', a tournament's end the "match
# over" one (see ``why_no_email``).
FOLLOWS: dict[str, str] = {
    Kind.ALARM: "turn",
    Kind.TABLE: "invitation",
    Kind.STARTED: "invitation",
    Kind.ENDED: "game_over",
}
# The kinds a feature composes about an event a person entered (``event_notice``).
EVENT_KINDS = (Kind.STARTED, Kind.ENDED)
# The task that hears "match finished" (settings.MATCH_FINISHED_TASKS names it).
MATCH_FINISHED_TASK = "games.notify.tasks.match_finished"


class NoticeOutcome(StrEnum):
    """What became of one due item: the sweep counts them (``"turn sent"``), and /metrics
    counts each email's (``deliver``)."""

    SENT = "sent"
    DROPPED = "dropped"  # claimed, then no longer wanted or about anything (the note says why)
    FAILED = "failed"  # an error or the mail server's refusal: tried again later
    GAVE_UP = "gave up"  # failed ``MAX_ATTEMPTS`` times
    SKIPPED = "skipped"  # the person wants no such email: decided without sending
    PUSHED = "pushed"  # the player is at the table: asked again a grace later
    TAKEN = "taken"  # another sweep (or an earlier one) claimed it
    GONE = "gone"  # nothing is due any more: the player moved, or another sweep acted


def sweep(now: datetime) -> dict[str, int]:
    """Act on everything due at ``now``; counts of what happened, e.g. ``{"turn sent": 2}``.
    One item that fails is logged and left for the next sweep; the others go on."""
    counts: Counter[str] = Counter()
    for seat_id, due_at in selectors.nudges_due(now):
        counts[f"turn {_guarded(seat_notice, seat_id=seat_id, due_at=due_at, kind=Kind.TURN)}"] += 1
    for seat_id, due_at in selectors.alarms_due(now):
        counts[f"alarm {_guarded(seat_notice, seat_id=seat_id, due_at=due_at, kind=Kind.ALARM)}"] += 1
    for seat_id in selectors.invitations_due(now):
        counts[f"invitation {_guarded(invitation_notice, seat_id=seat_id)}"] += 1
    for user_id, due_at in selectors.digests_due(now):
        counts[f"digest {_guarded(digest_notice, user_id=user_id, due_at=due_at)}"] += 1
    for notice_id, claimed_at in selectors.notices_to_retry(now - RETRY_AFTER):
        counts[f"retry {_guarded(retry_notice, notice_id=notice_id, claimed_at=claimed_at)}"] += 1
    return dict(counts)


def _guarded(action: Callable[..., NoticeOutcome], **arguments: object) -> NoticeOutcome:
    try:
        return action(**arguments)
    except Exception:
        logger.exception("notify: %s%r failed; tried again by a later sweep", action.__name__, arguments)
        return NoticeOutcome.FAILED


def why_no_email(user: User | None, kind: str, now: datetime) -> str | None:
    """Why ``user`` gets no email of ``kind`` now, or None if they do."""
    if user is None or user.is_bot:
        return "bots get no email"
    if not user.is_active:
        return "the account is inactive"
    if not user.email:
        return "no email address"
    if user.on_vacation(now):
        return "on vacation"
    if kind == Kind.DIGEST:
        return None if user.wants_digest else "no digest wanted"
    if kind in (Kind.TABLE, Kind.STARTED):
        # **Decision**: a tournament table follows the invitation choice (it is an
        # invitation one cannot decline) but goes every time, also to a person on the
        # digest: its clock runs from the seating, so tomorrow's digest would be late.
        # A tournament's start carries the first table: the same.
        if user.notify_invitation == Notify.OFF:
            return "invitation emails are off"
        return None
    preference = FOLLOWS.get(kind, kind)
    if user.notify_preference(preference) != Notify.EACH:
        return f"{preference.replace('_', ' ')} emails are {user.notify_preference(preference)}"
    return None


# -- your turn, and about to lose on time ----------------------------------------------


def seat_notice(*, seat_id: int, due_at: datetime, kind: str) -> NoticeOutcome:
    """The "your turn" (``nudge_at``) or "about to lose on time" (``alarm_at``) email of
    one seat, due at ``due_at``. Someone looking at the match gets none: their column
    is moved on by the grace instead."""
    column = "nudge_at" if kind == Kind.TURN else "alarm_at"
    now = timezone.now()
    seat = Seat.objects.select_related("user", "match").filter(pk=seat_id, **{column: due_at}).first()
    if seat is None or due_at > now:
        return NoticeOutcome.GONE  # the player moved (the core recomputed the column), or another sweep acted

    def advance_to(value: datetime | None) -> Callable[[], bool]:
        return lambda: bool(Seat.objects.filter(pk=seat_id, **{column: due_at}).update(**{column: value}))

    why_not = _why_no_turn_email(seat, kind, now)
    if why_not is not None:
        advance_to(None)()
        return NoticeOutcome.SKIPPED
    assert seat.user is not None and seat.decision_ply is not None
    # The grace counts from the last moment the player was seen at the match: one who
    # kept it open for a minute and left 3 s ago is not nudged now, but a grace after leaving.
    seen_at = presence.last_seen(seat.user.pk, seat.match_id)
    seen = datetime.fromtimestamp(seen_at, tz=UTC) if seen_at is not None else None
    if seen is not None and now < seen + selectors.grace():
        advance_to(_later(seat, column, seen))()
        return NoticeOutcome.PUSHED
    notice = Notice(user=seat.user, match=seat.match, ply=seat.decision_ply, kind=kind, claimed_at=now)
    if not _claim(notice, advance_to(None)):
        return NoticeOutcome.TAKEN
    return deliver(notice)


def _why_no_turn_email(seat: Seat, kind: str, now: datetime) -> str | None:
    if seat.match.status != Match.Status.RUNNING or seat.decision_ply is None or seat.resigned_at:
        return "nothing owed"
    if seat.deadline_at is not None and seat.deadline_at <= now:
        return "the time ran out"  # the autopilot plays now: a reminder would come too late
    return why_no_email(seat.user, kind, now)


def _later(seat: Seat, column: str, seen: datetime) -> datetime | None:
    """When to look again at a nudge or alarm put off because its player is at the
    table, or left it less than a grace ago: a grace after ``seen``, unless the next
    event (the alarm, the deadline) comes first and says it all."""
    later = seen + selectors.grace()
    next_event = (seat.alarm_at if column == "nudge_at" else None) or seat.deadline_at
    return None if next_event is not None and later >= next_event else later


# -- invitations, game over, the digest ------------------------------------------------


def invitation_notice(*, seat_id: int) -> NoticeOutcome:
    """The email of an invitation waiting since the grace. A person who wants none gets
    a ``dropped`` row, so the due list leaves the invitation behind (it has no column)."""
    now = timezone.now()
    seat = Seat.objects.select_related("user", "match").filter(pk=seat_id).first()
    if seat is None or not seat.is_invitation or seat.match.status != Match.Status.OPEN:
        return NoticeOutcome.GONE
    return _decide_once(Notice(user=seat.user, match=seat.match, kind=Kind.INVITATION, claimed_at=now))


def table_ready_notice(*, seat_id: int, about: str, after_match_id: int | None = None) -> NoticeOutcome:
    """ "Your table is ready": a feature above this one seated the seat's person at a new
    table (a match already running) and says what seated them in ``about``, its own words
    ("round 2 of Autumn Cup": notify knows nothing of tournaments). Asked once per person
    and table (the notice's key makes a second call send nothing). A person who wants
    none gets a ``dropped`` row, as for an invitation: the decision is made once.

    ``after_match_id``: the person's previous table, which ended in the same moment that
    seated this one; the email says how it ended, and its own "match over" is not sent
    (``game_over_emails``'s ``next_table_tells``): one email for one moment."""
    now = timezone.now()
    seat = Seat.objects.select_related("user", "match").filter(pk=seat_id).first()
    if seat is None or seat.user is None or seat.match.status != Match.Status.RUNNING:
        return NoticeOutcome.GONE
    about = about[: Notice._meta.get_field("about").max_length]
    push.table_ready(seat_id=seat_id, about=about)  # and on their devices (never raises)
    message = {"after_match": after_match_id} if after_match_id is not None else {}
    return _decide_once(
        Notice(
            user=seat.user, match=seat.match, kind=Kind.TABLE, about=about, message=message, claimed_at=now
        )
    )


def event_notice(*, user_id: int, kind: str, event: str, news: emails.EventNews) -> NoticeOutcome:
    """An email about an event the person entered, composed by the feature that runs it
    (``news``: its words and links; notify knows nothing of tournaments): ``STARTED`` or
    ``ENDED``. Once per person, event and kind, by the notice's key (``event`` is the
    feature's name for it, "tournament 12"); the email is kept with the claim, so a retry
    sends the same one. A person who wants none gets a ``dropped`` row: decided once.
    Raises ``ValueError`` for a kind that is not an event's, an unnamed event, or a link
    that is not a path on this site (nothing is written)."""
    if kind not in EVENT_KINDS:
        raise ValueError(f"not an event's kind: {kind!r}")
    if not event.strip() or len(event) > (Notice._meta.get_field("event").max_length or 0):
        raise ValueError(f"an event needs a short name: {event!r}")
    if any(not path.startswith("/") or path.startswith("//") for _, path in news.links):
        raise ValueError("an event email links to paths on this site only")
    user = User.objects.filter(pk=user_id).first()
    if user is None:
        return NoticeOutcome.GONE
    if kind == Kind.STARTED:
        push.tournament_started(user_id=user_id, news=news)  # their first table, on their devices
    notice = Notice(user=user, kind=kind, event=event, message=news.as_json(), claimed_at=timezone.now())
    return _decide_once(notice)


def _decide_once(notice: Notice) -> NoticeOutcome:
    """Claim ``notice`` and send it, or, for a person who wants none of its kind, write it
    ``dropped`` so the decision is made once; ``TAKEN`` when its key was claimed already."""
    why_not = why_no_email(notice.user, notice.kind, notice.claimed_at)
    if why_not is not None:
        notice.status, notice.note = Notice.Status.DROPPED, why_not
        return NoticeOutcome.SKIPPED if _claim(notice) else NoticeOutcome.TAKEN
    if not _claim(notice):
        return NoticeOutcome.TAKEN
    return deliver(notice)


def game_over_notices(*, match_id: int) -> int:
    """ "The match is over": one email to each person who played ``match_id`` and wants
    it. Told by the match-finished announcement, which may come more than once: the
    notices' unique key makes it once. A match a feature tells its people about itself
    (``settings.MATCH_OVER_TOLD_BY``: a tournament's table, whose last one the
    tournament's end email tells) gets none from here. Returns how many were sent now."""
    match = Match.objects.filter(pk=match_id, status=Match.Status.FINISHED).first()
    sent = 0
    if match is not None and not _told_by_a_feature(match):
        sent = game_over_emails(match_id=match_id)
    announcement_delivered(match_id=match_id, task_name=MATCH_FINISHED_TASK)
    return sent


def _told_by_a_feature(match: Match) -> bool:
    return any(tells(match) for tells in hook_functions("MATCH_OVER_TOLD_BY"))


def game_over_emails(*, match_id: int, next_table_tells: Collection[int] = ()) -> int:
    """The "match is over" emails of ``match_id``, once per person (the notices' key): what
    the announcement sends, and what a feature that tells a match's end itself asks for
    when it has nothing more to say. Returns how many were sent now.

    Two people get none, recorded as a ``dropped`` notice so that a second call decides
    the same (docs/site.md, "Notifications"):

    - one who **saw the end live**: they had the match open when it ended, or closed it
      after (presence's last sight of them is not before the end);
    - one in ``next_table_tells`` (user ids) whose "your table is ready" email, sent for
      the same moment, says how this match ended (``table_ready_notice``'s
      ``after_match_id``), unless that email is not going to them."""
    now = timezone.now()
    match = Match.objects.filter(pk=match_id, status=Match.Status.FINISHED).first()
    sent = 0
    if match is None:
        return sent
    for seat in match.seats.select_related("user").filter(user__isnull=False, joined_at__isnull=False):
        if why_no_email(seat.user, Kind.GAME_OVER, now) is not None:
            continue
        notice = Notice(user=seat.user, match=match, ply=match.ply, kind=Kind.GAME_OVER, claimed_at=now)
        why_not = _why_no_game_over_email(seat, match, next_table_tells, now)
        if why_not is not None:
            notice.status, notice.note = Notice.Status.DROPPED, why_not
            _claim(notice)
        elif _claim(notice):
            sent += deliver(notice) == NoticeOutcome.SENT
    return sent


def _why_no_game_over_email(
    seat: Seat, match: Match, next_table_tells: Collection[int], now: datetime
) -> str | None:
    assert seat.user is not None
    if seat.user.pk in next_table_tells and why_no_email(seat.user, Kind.TABLE, now) is None:
        return "told in the next table's email"
    seen = presence.last_seen(seat.user.pk, match.pk)
    if seen is not None and match.finished_at is not None and seen >= match.finished_at.timestamp():
        return "saw the end live"
    return None


def digest_notice(*, user_id: int, due_at: datetime) -> NoticeOutcome:
    """The daily digest of one person, due at ``due_at`` (their hour, in their zone):
    every match waiting for them of the kinds they chose the digest for. Nothing
    waiting, no email. One per local day, by the notice's key (the person may move
    the hour or the zone after today's went)."""
    now = timezone.now()
    user = User.objects.filter(pk=user_id, next_digest_at=due_at).first()
    if user is None or due_at > now:
        return NoticeOutcome.GONE
    following = user.next_digest_after(now)

    def advance() -> bool:
        return bool(User.objects.filter(pk=user_id, next_digest_at=due_at).update(next_digest_at=following))

    if why_no_email(user, Kind.DIGEST, now) is not None or not _digest_items(user, now):
        advance()
        return NoticeOutcome.SKIPPED
    notice = Notice(user=user, kind=Kind.DIGEST, day=due_at.astimezone(user.zone).date(), claimed_at=now)
    if not _claim(notice, advance):
        return NoticeOutcome.TAKEN
    return deliver(notice)


def _digest_items(user: User, now: datetime) -> list[selectors.Waiting]:
    return selectors.waiting_for(
        user,
        now,
        turns=user.notify_turn == Notify.DIGEST,
        invitations=user.notify_invitation == Notify.DIGEST,
    )


# -- claiming, sending, retrying --------------------------------------------------------


def _claim(notice: Notice, advance: Callable[[], bool] | None = None) -> bool:
    """Write ``notice`` and, in the same transaction, clear or advance the column that
    made it due (``advance``: False if the column moved meanwhile). False, and nothing
    written, if its key is taken (another sweep, or this turn had its email already) or
    the column moved."""
    try:
        with transaction.atomic():
            notice.save(force_insert=True)
            if advance is not None and not advance():
                raise _ColumnMoved
    except IntegrityError:
        # This notice exists already: only the column is left to tidy, so the due set stays small.
        if advance is not None:
            advance()
        return False
    except _ColumnMoved:
        return False
    return True


class _ColumnMoved(Exception):
    """The due column changed between the sweep's read and its claim: roll the claim back."""


def deliver(notice: Notice) -> NoticeOutcome:
    """Send the email a claimed notice stands for and mark it ``sent``; ``dropped`` when
    it no longer applies (the turn was played, the person turned the kind off); ``failed``
    when the mail server refused it (retried later). Each outcome is counted for /metrics."""
    outcome = _send_or_drop(notice)
    metrics.count_email(kind=notice.kind, outcome=outcome)
    return outcome


def _send_or_drop(notice: Notice) -> NoticeOutcome:
    now = timezone.now()
    message = _email_for(notice, now)
    if isinstance(message, str):
        Notice.objects.filter(pk=notice.pk, status=Notice.Status.CLAIMED).update(
            status=Notice.Status.DROPPED, note=message
        )
        return NoticeOutcome.DROPPED
    try:
        emails.send(message)
    except Exception:
        logger.exception("notify: notice %s (attempt %s) was not sent", notice.pk, notice.attempts)
        return NoticeOutcome.FAILED  # still claimed: retried after RETRY_AFTER
    Notice.objects.filter(pk=notice.pk, status=Notice.Status.CLAIMED).update(
        status=Notice.Status.SENT, sent_at=timezone.now()
    )
    return NoticeOutcome.SENT


def _email_for(notice: Notice, now: datetime) -> EmailMultiAlternatives | str:
    """The email of ``notice`` as things are now, or why there is none any more."""
    user = notice.user
    why_not = why_no_email(user, notice.kind, now)
    if why_not is not None:
        return why_not
    if notice.kind == Kind.DIGEST:
        assert notice.day is not None
        waiting = _digest_items(user, now)
        return emails.digest_email(user, waiting, notice.day) if waiting else "nothing waits"
    if notice.kind in EVENT_KINDS:
        return emails.event_email(user, notice.kind, emails.EventNews.from_json(notice.message))
    assert notice.match_id is not None  # every other kind is about a match
    seat = (
        Seat.objects.select_related("user", "match", "match__created_by")
        .filter(match=notice.match_id, user=user)
        .first()
    )
    if seat is None:
        return "no seat"
    if notice.kind in (Kind.TURN, Kind.ALARM):
        if _why_no_turn_email(seat, notice.kind, now) or seat.decision_ply != notice.ply:
            return "the turn is over"
        return emails.turn_email(user, selectors.turn_news(seat, now), is_alarm=notice.kind == Kind.ALARM)
    if notice.kind == Kind.INVITATION:
        if not seat.is_invitation or seat.match.status != Match.Status.OPEN:
            return "the invitation was answered"
        return emails.invitation_email(user, selectors.invitation_news(seat))
    if notice.kind == Kind.TABLE:
        if seat.match.status != Match.Status.RUNNING or seat.resigned_at is not None:
            return "the table is over"
        return emails.table_email(
            user, selectors.table_news(seat), about=notice.about, previous=_previous_table(notice)
        )
    return emails.game_over_email(user, selectors.game_over_news(seat))


def _previous_table(notice: Notice) -> selectors.GameOverNews | None:
    """How the person's previous table ended, for a "your table is ready" email that tells it."""
    after = notice.message.get("after_match") if isinstance(notice.message, dict) else None
    seat = (
        Seat.objects.select_related("match")
        .filter(match=after, user=notice.user, match__status=Match.Status.FINISHED)
        .first()
        if isinstance(after, int)
        else None
    )
    return selectors.game_over_news(seat) if seat is not None else None


def retry_notice(*, notice_id: int, claimed_at: datetime) -> NoticeOutcome:
    """Take over a notice claimed at ``claimed_at`` and never sent, and send it (or drop
    it). One conditional UPDATE decides which of two sweeps does."""
    now = timezone.now()
    taken = Notice.objects.filter(pk=notice_id, status=Notice.Status.CLAIMED, claimed_at=claimed_at)
    if taken.filter(attempts__gte=MAX_ATTEMPTS).update(
        status=Notice.Status.FAILED, note=f"not sent after {MAX_ATTEMPTS} attempts"
    ):
        return NoticeOutcome.GAVE_UP
    if not taken.update(claimed_at=now, attempts=F("attempts") + 1):
        return NoticeOutcome.TAKEN
    notice = Notice.objects.select_related("user").get(pk=notice_id)
    return deliver(notice)


# -- unsubscribing ----------------------------------------------------------------------


def digest_offered(kind: str) -> bool:
    """Whether ``kind``'s emails may come in the daily digest instead: the preference it
    follows offers the digest (the game-over one does not; the digest is not its own)."""
    name = NOTIFY_FIELDS.get(FOLLOWS.get(kind, kind))
    field = User._meta.get_field(name) if name is not None else None
    return isinstance(field, models.Field) and Notify.DIGEST in dict(field.choices or [])


def unsubscribe(*, user: User, kind: str) -> list[str]:
    """Turn off the emails of ``kind`` (a one-click unsubscribe link's kind): the alarm
    with the "your turn" emails it follows, a table with the invitations; the digest,
    every kind set to it. Returns the preferences turned off."""
    if kind == Kind.DIGEST:
        names = [name for name in ("turn", "invitation") if user.notify_preference(name) == Notify.DIGEST]
    else:
        names = [FOLLOWS.get(kind, kind)]
    for name in names:
        user = user_notification_off(user=user, name=name)
    return names
