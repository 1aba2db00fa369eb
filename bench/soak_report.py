"""The checks and the Markdown report of ``bench/soak.py``.

Criteria (issue 30): each process's memory grows less than ``MEMORY_GROWTH_LIMIT`` from
minute 2 to the end; PostgreSQL connections stay within each process's pool; no move
lost or duplicated; no 5xx; push p99 at most ``PUSH_P99_LIMIT_MS``; every email
exactly once, and every "match over" email owed for a finished match received.
"""

from __future__ import annotations

import os
import platform
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.soak_players import World, read_mail
from bench.soak_stack import Mailbox, Sample, Sampler, pool_max

MEMORY_GROWTH_LIMIT = 0.10
PUSH_P99_LIMIT_MS = 250.0
BASELINE_MINUTE = 2.0
SHOWN = 8  # problems listed per check


def percentile(values: list[float], share: float) -> float | None:
    """The nearest-rank percentile (None for no values)."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


# -- the moves --------------------------------------------------------------------------------


@dataclass
class MoveCheck:
    sent: int = 0
    acknowledged: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    never_answered: int = 0
    lost: list[str] = field(default_factory=list)  # acknowledged, not stored (or at another ply)
    duplicated: list[str] = field(default_factory=list)  # acknowledged twice, marked duplicate
    phantom: list[str] = field(default_factory=list)  # a person's stored move no client sent
    stored_unacknowledged: int = 0  # sent and stored, the answer never came (counted in never_answered)
    gaps: list[str] = field(default_factory=list)  # a match whose stored plies are not 0..ply-1
    reused_ids: list[str] = field(default_factory=list)  # a board offered an action id sent before
    people_moves: int = 0
    bot_moves: int = 0
    autopilot_moves: int = 0
    matches: int = 0
    finished: int = 0

    @property
    def ok(self) -> bool:
        return not (
            self.never_answered
            or self.lost
            or self.duplicated
            or self.phantom
            or self.gaps
            or self.reused_ids
        )


def check_moves(world: World) -> MoveCheck:
    """Every move the clients sent against the rows of ``games_move``."""
    from accounts.models import User
    from games.models import Match, Move

    check = MoveCheck()
    match_ids = [match_id for slot in world.slots for match_id in slot.matches]
    matches = dict(Match.objects.filter(pk__in=match_ids).values_list("pk", "ply"))
    check.matches = len(matches)
    check.finished = Match.objects.filter(pk__in=match_ids, status=Match.Status.FINISHED).count()
    bots = set(User.objects.filter(is_bot=True).values_list("pk", flat=True))
    plies: dict[int, list[int]] = {match_id: [] for match_id in matches}
    people: dict[tuple[int, str], int] = {}
    for match_id, ply, user_id, action_id in Move.objects.filter(match_id__in=match_ids).values_list(
        "match_id", "ply", "user_id", "action_id"
    ):
        plies[match_id].append(ply)
        if user_id is None:
            check.autopilot_moves += 1
        elif user_id in bots:
            check.bot_moves += 1
        else:
            check.people_moves += 1
            people[(match_id, str(action_id))] = ply
    for match_id, stored_plies in plies.items():
        if sorted(stored_plies) != list(range(matches[match_id])):
            check.gaps.append(
                f"match {match_id}: ply {matches[match_id]}, stored plies {sorted(stored_plies)[:5]}..."
            )
    moves = list({id(move): move for move in world.record.moves.values()}.values())
    sent = {(move.match_id, move.action_id) for move in moves}
    check.reused_ids = list(world.record.reused_ids)
    check.sent = len(moves)
    for move in moves:
        key = (move.match_id, move.action_id)
        if move.refused is not None:
            check.refused[move.refused] += 1
            continue
        if move.acted is None:
            check.never_answered += 1
            check.stored_unacknowledged += key in people
            continue
        check.acknowledged += 1
        slot = world.slots[move.slot]
        about = f"match {move.match_id} ({slot.kind} {slot.games.get(move.match_id)})"
        if move.acks > 1 or move.duplicate:
            check.duplicated.append(
                f"{about}: sent at ply {move.ply}, {move.acks} acks, duplicate={move.duplicate}, "
                f"acted as {move.acked_ply}, stored at {people.get(key)}"
            )
        stored = people.get(key)
        # A move made on an older board is stored at the current ply when only other seats
        # moved meanwhile (games/services/decisions.py, made_on_current_picture).
        if stored is None:
            check.lost.append(f"{about}: sent at ply {move.ply}, acknowledged, not stored")
        elif stored < move.ply or move.acked_ply != stored + 1:
            check.lost.append(
                f"{about}: sent at ply {move.ply}, acted as {move.acked_ply}, stored at {stored}"
            )
    check.phantom = [
        f"match {match_id}: action {action_id}"
        for match_id, action_id in people
        if (match_id, action_id) not in sent
    ]
    return check


# -- the emails ---------------------------------------------------------------------------------


@dataclass
class MailCheck:
    received: int = 0
    by_kind: Counter[str] = field(default_factory=Counter)
    notices: Counter[str] = field(default_factory=Counter)  # by status
    duplicated: list[str] = field(default_factory=list)  # more messages than notices sent
    missing: list[str] = field(default_factory=list)  # a notice sent (or left claimed) without its message
    unexpected: list[str] = field(default_factory=list)  # a message without a notice
    unread: list[str] = field(default_factory=list)
    game_over_owed: int = 0
    game_over_received: int = 0
    game_over_missing: list[str] = field(default_factory=list)
    game_over_unwanted: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (
            self.duplicated or self.missing or self.unexpected or self.unread
            or self.game_over_missing or self.game_over_unwanted
        )  # fmt: skip


def check_mail(world: World, mailbox: Mailbox) -> MailCheck:
    """The messages the SMTP server accepted against the notices the site wrote: per
    person, kind and match, as many messages as notices marked sent (a notice is one
    turn's, so "your turn" emails of one match count its turns); and for every finished
    match, one "match over" message to each person who played it and wants it."""
    from games.models import Match, Seat
    from games.notify.models import Notice

    check = MailCheck()
    received: Counter[tuple[int, str, int | None]] = Counter()
    for mail in mailbox.all():
        read = read_mail(mail)
        if isinstance(read, str):
            check.unread.append(read)
            continue
        received[read] += 1
        check.by_kind[read[1]] += 1
    check.received = sum(received.values())
    people = {person.user_id: person for slot in world.slots for person in slot.people}
    sent: Counter[tuple[int, str, int | None]] = Counter()
    for user_id, kind, match_id, status in Notice.objects.filter(user_id__in=people).values_list(
        "user_id", "kind", "match_id", "status"
    ):
        check.notices[status] += 1
        if status == Notice.Status.SENT:
            sent[(user_id, kind, match_id)] += 1
        elif status == Notice.Status.CLAIMED:
            check.missing.append(f"user {user_id} {kind} match {match_id}: claimed, never sent")
    for key in sorted(set(received) | set(sent), key=str):
        about = "user {} {} match {}".format(*key)
        if received[key] > sent[key]:
            target = check.duplicated if sent[key] else check.unexpected
            target.append(f"{about}: {received[key]} emails, {sent[key]} notices sent")
        elif received[key] < sent[key]:
            check.missing.append(f"{about}: {received[key]} emails, {sent[key]} sent")
    match_ids = [match_id for slot in world.slots for match_id in slot.matches]
    finished = Match.objects.filter(pk__in=match_ids, status=Match.Status.FINISHED).values_list(
        "pk", flat=True
    )
    for match_id, user_id in Seat.objects.filter(
        match_id__in=list(finished), user__is_bot=False, user__isnull=False, joined_at__isnull=False
    ).values_list("match_id", "user_id"):
        count = received[(user_id, "game_over", match_id)]
        if people[user_id].wants_game_over:
            check.game_over_owed += 1
            check.game_over_received += min(count, 1)
            if count == 0:
                check.game_over_missing.append(f"user {user_id} match {match_id}")
        elif count:
            check.game_over_unwanted.append(f"user {user_id} match {match_id}: {count} (turned off)")
    return check


# Lines of the servers' logs worth counting (a symptom, not a failure by itself).
LOG_NOTES = {
    "over capacity": "channel layer messages dropped over capacity (channels_redis)",
    "re-queued": "bot turns re-queued by the sweep",
    "could not record": "presence not recorded (Redis slow)",
    "took too long to shut down": "sockets killed at shutdown (Daphne)",
    "WARNING": "WARNING lines",
}


def scan_logs(folder: Path) -> tuple[dict[str, list[str]], Counter[str]]:
    """Per log file of the servers, its tracebacks (as their exception's line) and its
    ERROR or CRITICAL lines; and the count of each of ``LOG_NOTES`` in them all."""
    found: dict[str, list[str]] = {}
    notes: Counter[str] = Counter()
    for path in sorted(folder.glob("*.log")):
        lines = path.read_text(errors="replace").splitlines()
        bad = []
        for index, line in enumerate(lines):
            if line.startswith("Traceback"):
                after = (later for later in lines[index + 1 :] if later and not later[0].isspace())
                bad.append(next(after, line))
            elif line.startswith(("ERROR", "CRITICAL")) or " ERROR/" in line or " CRITICAL/" in line:
                bad.append(line)
            for pattern, what in LOG_NOTES.items():
                if pattern in line:
                    notes[what] += 1
        if bad:
            found[path.name] = bad
    return found, notes


@dataclass
class Checks:
    moves: MoveCheck
    mail: MailCheck
    logs: dict[str, list[str]]
    log_notes: Counter[str]


# -- the report ------------------------------------------------------------------------------


def _mb(value: float | None) -> str:
    return "-" if value is None else f"{value / 2**20:.0f}"


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}"


def _role_name(role: str) -> str:
    return role.replace("worker-child-", "worker child ").replace("daphne-", "Daphne ")


def _roles(samples: list[Sample]) -> list[str]:
    seen: dict[str, None] = {}
    for sample in samples:
        for role in sample.rss:
            seen.setdefault(role)
    order = {"daphne": 0, "worker": 1, "worker-child": 2, "beat": 3, "bench": 4}
    return sorted(seen, key=lambda role: (order.get(role.rsplit("-", 1)[0], order.get(role, 1)), role))


def baseline_seconds(minutes: float) -> float:
    """When memory is first compared: minute 2, or a fifth of a soak under four minutes."""
    return BASELINE_MINUTE * 60 if minutes >= 2 * BASELINE_MINUTE else minutes * 60 / 5


def _baseline(samples: list[Sample], minutes: float) -> Sample | None:
    at = baseline_seconds(minutes)
    return next((sample for sample in samples if sample.t >= at - 1), samples[0] if samples else None)


def _marks(samples: list[Sample], minutes: float) -> list[Sample]:
    """One sample a minute (every sample in a soak under three minutes)."""
    if minutes < 3:
        return samples
    marks = []
    for minute in range(int(minutes) + 1):
        sample = next((s for s in samples if s.t >= minute * 60 - 1), None)
        if sample is not None and sample not in marks:
            marks.append(sample)
    if samples and samples[-1] not in marks:
        marks.append(samples[-1])
    return marks


def _processes_of(sample: Sample, app: str) -> int:
    """How many processes share an application name: the worker's main process and its children."""
    if app == "worker":
        return sum(1 for role in sample.rss if role.startswith("worker"))
    return 1


def _allowed(sample: Sample, limits: dict[str, int | None]) -> dict[str, int | None]:
    """The connections each application may hold at ``sample``: its pool per process."""
    allowed: dict[str, int | None] = {}
    for app in [role for role in sample.rss if not role.startswith("worker-child")]:
        if app == "bench":
            continue
        kind = _kind_of(app)
        limit = limits.get(kind) if kind else 0
        allowed[app] = None if limit is None else limit * _processes_of(sample, app)
    return allowed


def _kind_of(role: str) -> str | None:
    if role.startswith("daphne"):
        return "web"
    if role.startswith("worker") or role == "beat":
        return "worker"
    return None


def report(conditions: dict[str, Any], world: World, sampler: Sampler, checks: Checks) -> tuple[str, bool]:
    samples = sampler.samples
    record = world.record
    minutes = conditions["minutes"]
    roles = _roles(samples)
    site_roles = [role for role in roles if role != "bench"]
    base = _baseline(samples, minutes)
    last = samples[-1] if samples else None
    verdicts: list[tuple[str, str, bool]] = []

    # memory
    growth: dict[str, float | None] = {}
    for role in site_roles:
        before = base.rss.get(role) if base else None
        after = last.rss.get(role) if last else None
        growth[role] = (after - before) / before if before and after else None
    measured = {role: value for role, value in growth.items() if value is not None}
    worst = max(measured.items(), key=lambda item: item[1]) if measured else None
    memory_ok = (
        bool(measured)
        and len(measured) == len(site_roles)
        and all(value < MEMORY_GROWTH_LIMIT for value in measured.values())
    )
    base_minute = f"{base.t / 60:.1f}" if base else "-"
    verdicts.append((
        f"memory of each process grows < {MEMORY_GROWTH_LIMIT:.0%} (minute {base_minute} → end)",
        (f"worst {_role_name(worst[0])} {worst[1]:+.1%}" if worst else "no samples")
        + "".join(f"; {_role_name(role)} not alive at both" for role, value in growth.items() if value is None),
        memory_ok,
    ))  # fmt: skip

    # PostgreSQL connections, by the application name each process gives
    pools = conditions["pools"]
    limits = {kind: pool_max(settings) for kind, settings in pools.items()}
    most: Counter[str] = Counter()
    most_by_process: Counter[str] = Counter()
    states_most: Counter[str] = Counter()
    total_most = 0
    over: dict[str, str] = {}
    bound = 0
    for sample in samples:
        for state, count in sample.states.items():
            states_most[state] = max(states_most[state], count)
        for role, count in sample.by_process.items():
            most_by_process[role] = max(most_by_process[role], count)
        total_most = max(total_most, sum(n for app, n in sample.connections.items() if app != "bench"))
        allowed = _allowed(sample, limits)
        bound = max(bound, sum(limit or 0 for limit in allowed.values()))
        for app, count in sample.connections.items():
            most[app] = max(most[app], count)
            if app == "bench":
                continue
            limit = allowed.get(app, 0)
            if limit is None:
                over[app] = f"{app}: no pool"
            elif count > limit:
                over[app] = f"{app} {count} > {limit} at minute {sample.t / 60:.1f}"
    verdicts.append((
        "PostgreSQL connections within each process's pool",
        f"most {total_most} at once in all (the pools allow {bound})"
        + (f"; {', '.join(over.values())}" if over else ""),
        bool(samples) and not over,
    ))  # fmt: skip

    moves = checks.moves
    verdicts.append((
        "moves lost / duplicated",
        f"{moves.never_answered + len(moves.lost)} / {len(moves.duplicated) + len(moves.phantom)} "
        f"of {moves.acknowledged:,} acknowledged" + (f"; {len(moves.gaps)} matches with gaps" if moves.gaps else ""),
        moves.ok,
    ))  # fmt: skip
    requests = sum(record.http.values())
    fives = sum(count for status, count in record.http.items() if status >= 500)
    verdicts.append((
        "HTTP 5xx", f"{fives} of {requests:,} requests" + (f" ({len(record.http_errors)} failed to connect)" if record.http_errors else ""),
        fives == 0 and not record.http_errors and requests > 0,
    ))  # fmt: skip
    p50, p99 = percentile(record.opponent_ms, 0.5), percentile(record.opponent_ms, 0.99)
    verdicts.append((
        f"push p50 / p99 ≤ {PUSH_P99_LIMIT_MS:.0f} ms (a move to the opponent's socket)",
        f"{_ms(p50)} / {_ms(p99)} ms ({len(record.opponent_ms):,} moves)",
        p99 is not None and p99 <= PUSH_P99_LIMIT_MS,
    ))  # fmt: skip
    mail = checks.mail
    verdicts.append((
        "every email exactly once",
        f"{mail.received:,} emails: {len(mail.duplicated)} duplicated, {len(mail.missing)} missing, "
        f"{len(mail.unexpected)} without a notice; \"match over\" {mail.game_over_received}/{mail.game_over_owed} owed",
        mail.ok,
    ))  # fmt: skip
    socket_ok = not record.errors and not record.open_failures and not record.stale_tabs and not record.stuck
    verdicts.append((
        "sockets: every board delivered, none refused or closed by the server",
        f"{record.opened:,} opened, {len(record.open_failures)} failed, {len(record.errors)} errors; "
        f"{record.reloads} pages reloaded after a minute without their board; "
        f"{len(record.stale_tabs)} of the {conditions['sockets']:,} left behind their match's ply at the end",
        socket_ok,
    ))  # fmt: skip
    passed = all(ok for _, _, ok in verdicts)

    lines = [f"### Soak, {conditions['started']:%Y-%m-%d %H:%M} UTC ({minutes:g} minutes)", ""]
    lines += _conditions(conditions, samples)
    lines += ["", "| criterion | result | |", "|---|---|---|"]
    lines += [f"| {name} | {result} | {'pass' if ok else '**FAIL**'} |" for name, result, ok in verdicts]

    marks = _marks(samples, minutes)
    if marks:
        header = " | ".join(f"{sample.t / 60:.1f}" for sample in marks)
        lines += ["", f"Resident memory (MB) by minute; growth from minute {base_minute} to the end:", "",
                  f"| process | {header} | growth |", "|---|" + "---:|" * (len(marks) + 1)]  # fmt: skip
        for role in roles:
            values = " | ".join(_mb(sample.rss.get(role)) for sample in marks)
            shown = growth.get(role)
            lines.append(f"| {_role_name(role)} | {values} | {'-' if shown is None else f'{shown:+.1%}'} |")
        for role in roles:
            if role.startswith("daphne"):
                values = " | ".join(_mb(sample.anon.get(role)) for sample in marks)
                anon_growth = _growth(
                    base.anon.get(role) if base else None, last.anon.get(role) if last else None
                )
                lines.append(f"| {_role_name(role)}, anonymous (heap) only | {values} | {anon_growth} |")
        used = " | ".join(_mb(sample.redis_used) for sample in marks)
        lines.append(
            f"| Redis used_memory (whole server) | {used} | {_growth(base.redis_used if base else None, last.redis_used if last else None)} |"
        )
        connections = " | ".join(str(sum(c for r, c in s.connections.items() if r != "bench")) for s in marks)
        lines.append(f"| PostgreSQL connections (site) | {connections} | |")
        load = " | ".join(f"{sample.load[0]:.1f}" for sample in marks)
        lines.append(f"| load average (1 min) | {load} | |")
        lines += _cpu_shares(samples, roles)

    lines += ["", "PostgreSQL connections to the bench's database by application (each process's "
              "PGAPPNAME), most seen at once:", "",
              "| application | processes | pool max_size each | most | at the end |",
              "|---|---:|---:|---:|---:|"]  # fmt: skip
    allowed_last = _allowed(last, limits) if last else {}
    for app in sorted(set(most) | set(allowed_last), key=lambda app: (app == "bench", app)):
        kind = _kind_of(app)
        processes = _processes_of(last, app) if last else 1
        shown_limit = "-" if kind is None else str(limits.get(kind))
        at_end = last.connections.get(app, 0) if last else 0
        lines.append(f"| {app} | {processes} | {shown_limit} | {most[app]} | {at_end} |")
    lines.append("")
    lines.append(
        "By process (matched by client port; a connection opened and closed between two looks "
        "is unmatched), most at once: "
        + ", ".join(f"{_role_name(role)} {count}" for role, count in sorted(most_by_process.items()))
    )
    lines.append("")
    lines.append(
        "By state, most at once: "
        + ", ".join(f"{state} {count}" for state, count in sorted(states_most.items()))
    )
    if sampler.errors:
        lines.append(f"Sampler: {len(sampler.errors)} failed samples, e.g. {sampler.errors[0]}")

    lines += ["", "| latency | n | p50 | p90 | p99 | max |", "|---|---:|---:|---:|---:|---:|"]
    for name, timings in (
        ("act → acted (the mover's socket)", record.acted_ms),
        ("act → opponent's board (people against people)", record.opponent_ms),
        ("act → watchers' boards (all)", record.watcher_ms),
        ("act → watchers' boards on the other Daphne", record.watcher_other_process_ms),
        ("act → the bot's reply on the person's board", record.bot_reply_ms),
        ("HTTP GET (pages and API)", record.http_ms),
    ):
        lines.append(
            f"| {name} | {len(timings):,} | {_ms(percentile(timings, 0.5))} | {_ms(percentile(timings, 0.9))} "
            f"| {_ms(percentile(timings, 0.99))} | {_ms(max(timings) if timings else None)} |"
        )

    lines += [
        "",
        f'Moves: {moves.sent:,} sent by people over the sockets ({record.nudged_moves} after a "your turn" '
        f"email), {moves.acknowledged:,} acknowledged, refused: {_counts(moves.refused)}; stored: "
        f"{moves.people_moves:,} people's, {moves.bot_moves:,} bots', {moves.autopilot_moves:,} by the "
        f"autopilot (turn clocks run out). Matches: {moves.matches} played, {moves.finished} finished, "
        f"{record.replaced} replaced during the soak.",
        f"Emails by kind: {_counts(mail.by_kind)}; notices by status: {_counts(mail.notices)}.",
        f"HTTP statuses: {_counts(Counter({str(status): count for status, count in record.http.items()}))}.",
        f"Servers' logs (not a criterion): {sum(len(found) for found in checks.logs.values())} tracebacks "
        f"or ERROR lines; {_counts(checks.log_notes)}.",
    ]
    problems = [
        ("moves never answered", [f"{moves.never_answered} ({moves.stored_unacknowledged} of them stored)"] if moves.never_answered else []),
        ("moves lost", moves.lost), ("moves duplicated", moves.duplicated),
        ("action ids offered again", moves.reused_ids), ("moves nobody sent", moves.phantom),
        ("matches with gaps", moves.gaps), ("5xx", record.http_5xx), ("requests failed", record.http_errors),
        ("emails duplicated", mail.duplicated), ("emails missing", mail.missing),
        ("emails without a notice", mail.unexpected), ("emails unread", mail.unread),
        ("\"match over\" missing", mail.game_over_missing), ("\"match over\" unwanted", mail.game_over_unwanted),
        ("socket errors", record.errors), ("sockets not opened", record.open_failures),
        ("tabs left behind", record.stale_tabs), ("matches stuck", record.stuck),
        *((f"log {name}", logged_lines) for name, logged_lines in checks.logs.items()),
    ]  # fmt: skip
    listed = [(name, items) for name, items in problems if items]
    if listed:
        lines += ["", "Problems:"]
        for name, items in listed:
            lines.append(
                f"- {name} ({len(items)}): "
                + "; ".join(items[:SHOWN])
                + (" ..." if len(items) > SHOWN else "")
            )
    lines += _site_metrics(record.scrapes)
    lines += ["", "All criteria passed." if passed else "A criterion FAILED."]
    return "\n".join(lines), passed


def _cpu_shares(samples: list[Sample], roles: list[str]) -> list[str]:
    """Who had the CPU over the soak: each process, the database's backends, Redis, and
    the machine as a whole (other jobs are the difference)."""
    first, last = samples[0], samples[-1]
    seconds = last.t - first.t
    if seconds <= 0:
        return []
    shares = [
        f"{_role_name(role)} {(last.cpu[role] - first.cpu[role]) / seconds:.0%}"
        for role in roles
        if role in first.cpu and role in last.cpu
    ]
    postgres = (last.postgres_cpu - first.postgres_cpu) / seconds
    redis = (last.redis_cpu - first.redis_cpu) / seconds
    stack = (
        sum(last.cpu[role] - first.cpu[role] for role in roles if role in first.cpu and role in last.cpu)
        / seconds
        + postgres
        + redis
    )
    machine = (last.machine_busy - first.machine_busy) / seconds
    cores = os.cpu_count() or 1
    return [
        "",
        f"CPU over the soak, as a share of one core: {', '.join(shares)}, the bench database's "
        f"PostgreSQL backends {postgres:.0%}, Redis {redis:.0%}: {stack:.0%} in all, the bench's "
        f"clients included; the machine was busy {machine:.0%} of its {cores} cores' {cores * 100}%, "
        f"so other jobs took about {max(0.0, machine - stack):.0%}.",
    ]


def _growth(before: float | None, after: float | None) -> str:
    return f"{(after - before) / before:+.1%}" if before and after else "-"


def _counts(counter: Counter[str]) -> str:
    return ", ".join(f"{name} {count:,}" for name, count in counter.most_common()) or "none"


def _machine() -> str:
    model = ""
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            model = next(
                (line.split(":", 1)[1].strip() for line in cpuinfo if line.startswith("model name")), ""
            )
    except OSError:
        pass
    try:
        with open("/proc/meminfo") as meminfo:
            total = int(next(line for line in meminfo if line.startswith("MemTotal")).split()[1]) / 2**20
    except (OSError, StopIteration):
        total = 0
    return f"{os.cpu_count()} cores ({model or platform.machine()}), {total:.0f} GB, {platform.system()} {platform.release()}"


def _conditions(conditions: dict[str, Any], samples: list[Sample]) -> list[str]:
    counts = conditions["counts"]
    kinds = conditions["kinds"]
    pools = conditions["pools"]
    during = [sample.load[0] for sample in samples]
    mean_load = sum(during) / len(during) if during else 0.0

    def pool_words(kind: str) -> str:
        settings = pools[kind]
        size = pool_max(settings)
        return (
            f"{kind} max_size {size}"
            if size is not None
            else f"{kind}: no pool (CONN_MAX_AGE {settings['conn_max_age']})"
        )

    load = " ".join(f"{value:.2f}" for value in conditions["load_before"])
    after = " ".join(f"{value:.2f}" for value in conditions["load_after"])
    env = ", ".join(f"{name}={value}" for name, value in conditions["pool_env"].items())
    return [
        f"- Stack: 2 Daphnes, a Celery worker (prefork, concurrency 2) and beat, PostgreSQL "
        f"{conditions['postgres']} (pools per process from the settings: {pool_words('web')}, "
        f"{pool_words('worker')}{'; ' + env if env else ''}), Redis {conditions['redis']}, aiosmtpd; DEBUG off, "
        f"CLOCK_SWEEP_SECONDS={conditions['sweep']}, NUDGE_GRACE_SECONDS={conditions['grace']}, "
        "TRUSTED_PROXIES=127.0.0.1 (each client its own X-Forwarded-For).",
        f"- Load: {conditions['sockets']:,} match sockets ({counts['players']} players', {counts['watchers']:,} "
        f"watchers': {counts['signed_in_watchers']} of {counts['watcher_accounts']} signed-in people, the rest of "
        f"{counts['visitors']} visitors), {conditions['opened']:,} opened in all; {conditions['matches']} matches "
        f"in play ({kinds['pvp']} person against person, {kinds['pvb']} against a bot, {kinds['nudged']} whose "
        f'player comes on a "your turn" email, {kinds["away"]} whose player is away: 5-minute clocks run out); '
        f"people's moves {conditions['rate']:g}/s over the sockets, pages and API {conditions['http_rate']:g}/s.",
        f"- Machine: {_machine()}; load average {load} before, {mean_load:.2f} on average during, {after} after "
        "(shared with other jobs).",
    ]


# -- what the site's own /metrics said ----------------------------------------------------

Series = dict[tuple[str, frozenset[tuple[str, str]]], float]


def _series(text: str) -> Series:
    from prometheus_client.parser import text_string_to_metric_families

    found: Series = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, frozenset(sample.labels.items()))] = float(sample.value)
    return found


def _summed(series: Series, name: str, **labels: str) -> float:
    wanted = set(labels.items())
    return sum(
        value
        for (sample, sample_labels), value in series.items()
        if sample == name and wanted <= sample_labels
    )


def _histogram_quantile(first: Series, last: Series, name: str, share: float) -> str:
    """The upper bound of the bucket holding the ``share`` quantile of what was observed
    between two scrapes (a bucket's bound, as Prometheus's histogram_quantile would start from)."""
    bounds = sorted(
        {dict(labels)["le"] for sample, labels in last if sample == f"{name}_bucket"},
        key=lambda le: float("inf") if le == "+Inf" else float(le),
    )
    counts = [
        _summed(last, f"{name}_bucket", le=le) - _summed(first, f"{name}_bucket", le=le) for le in bounds
    ]
    if not counts or counts[-1] <= 0:
        return "-"
    for le, count in zip(bounds, counts, strict=True):
        if count >= share * counts[-1]:
            return f"≤ {float(le) * 1000:.0f} ms" if le != "+Inf" else f"> {float(bounds[-2]) * 1000:.0f} ms"
    return "-"


def _site_metrics(scrapes: list[tuple[float, str]]) -> list[str]:
    """The site's own account of the soak, between the first and the last scrape."""
    if len(scrapes) < 2:
        return []
    first, last = _series(scrapes[0][1]), _series(scrapes[-1][1])

    def delta(name: str, **labels: str) -> int:
        return round(_summed(last, name, **labels) - _summed(first, name, **labels))

    pushes = delta("boomsite_push_seconds_count")
    emails = ", ".join(
        f"{kind} {delta('boomsite_emails_total', kind=kind, outcome='sent')}"
        for kind in ("turn", "alarm", "game_over", "invitation", "digest")
        if delta("boomsite_emails_total", kind=kind, outcome="sent")
    )
    failed = delta("boomsite_emails_total", outcome="failed")
    classes = ", ".join(
        f"{status_class} {delta('boomsite_http_responses_total', status_class=status_class)}"
        for status_class in ("2xx", "3xx", "4xx", "5xx")
    )
    tasks_failed = delta("boomsite_celery_tasks_total", outcome="failed")
    sockets = round(_summed(last, "boomsite_sockets_open", kind="match"))
    return [
        "",
        f"The site's own /metrics, from the first scrape to the last ({len(scrapes)} scrapes, "
        f"{(scrapes[-1][0] - scrapes[0][0]) / 60:.1f} minutes): {delta('boomsite_moves_total'):,} moves stored; "
        f"{pushes:,} boards pushed, commit → sent p50 {_histogram_quantile(first, last, 'boomsite_push_seconds', 0.5)}, "
        f"p99 {_histogram_quantile(first, last, 'boomsite_push_seconds', 0.99)}; "
        f"emails sent: {emails or 'none'} ({failed} failed); HTTP answers: {classes}; Celery tasks failed: "
        f"{tasks_failed}; match sockets open at the last scrape: {sockets:,}.",
    ]


# -- where the Daphnes' memory grew (--trace-memory) ---------------------------------------


def memory_growth_by_line(folder: Path, baseline_at: float, top: int = 12) -> str:
    """Per Daphne, the lines of code whose live allocations grew most between the
    snapshot nearest ``baseline_at`` (a Unix time) and the last (``bench/soak_traced_asgi.py``)."""
    import tracemalloc

    by_pid: dict[str, list[tuple[float, Path]]] = {}
    for path in folder.glob("*.snapshot"):
        pid, stamp = path.stem.split("-")
        by_pid.setdefault(pid, []).append((float(stamp), path))
    lines = ["Where each Daphne's traced memory grew (tracemalloc, by line), from the baseline to the end:"]
    for pid, snapshots in sorted(by_pid.items()):
        snapshots.sort()
        first = min(snapshots, key=lambda item: abs(item[0] - baseline_at))
        last = snapshots[-1]
        if first == last:
            continue
        before = tracemalloc.Snapshot.load(str(first[1]))
        after = tracemalloc.Snapshot.load(str(last[1]))
        total = sum(stat.size for stat in after.statistics("filename")) - sum(
            stat.size for stat in before.statistics("filename")
        )
        lines += [
            "",
            f"Daphne pid {pid}, {(last[0] - first[0]) / 60:.1f} minutes: traced memory {total / 2**20:+.1f} MB",
            "",
            "| line | growth KB | blocks | size at the end KB |",
            "|---|---:|---:|---:|",
        ]
        for stat in after.compare_to(before, "lineno")[:top]:
            frame = stat.traceback[0]
            where = f"{_short_path(frame.filename)}:{frame.lineno}"
            lines.append(
                f"| {where} | {stat.size_diff / 1024:+,.0f} | {stat.count_diff:+,} | {stat.size / 1024:,.0f} |"
            )
    return "\n".join(lines)


def _short_path(filename: str) -> str:
    for marker in ("site-packages/", "/lib/python3"):
        if marker in filename:
            return filename.split(marker, 1)[1]
    root = str(Path(__file__).resolve().parent.parent) + "/"
    return filename.removeprefix(root)
