"""The event log every game keeps in its state, redacted per seat by ``view``.

An entry holds what everyone may know (``public``) and, per seat, what only that
seat may know (``private``). Facts are stored as canonical JSON text: immutable,
cheap to copy with the state, and encoded as they are. Texts name players as
``{s0}``, ``{s1}``, ... so the site can put display names in (``render_text``).
``log_reveal`` shows every seat's private part, for the replays of finished matches.
"""

from __future__ import annotations

import json
import marshal
import re
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

_SEAT_MARK = re.compile(r"\{s(\d+)\}")


@dataclass(frozen=True, slots=True, weakref_slot=True)  # the view cache watches entries die
class LogEntry:
    event: str
    seat: int | None
    text: str
    public: str = "{}"  # JSON object of facts everyone may know
    # (seat, that seat's own text, JSON object of facts only it may know)
    private: tuple[tuple[int, str, str], ...] = ()


# ``json.dumps(..., sort_keys=True, separators=(",", ":"))`` without building an
# encoder on every call (same output).
_ENCODE = json.JSONEncoder(sort_keys=True, separators=(",", ":")).encode


def _facts(facts: Mapping[str, Any] | None) -> str:
    if not facts:
        return "{}"
    return _ENCODE(dict(facts))


def entry(
    event: str,
    seat: int | None,
    text: str,
    public: Mapping[str, Any] | None = None,
    private: Mapping[int, tuple[str, Mapping[str, Any]]] | None = None,
) -> LogEntry:
    """Build an entry; ``private`` maps a seat to (its own text, its own facts)."""
    return LogEntry(
        event=event,
        seat=seat,
        text=text,
        public=_facts(public),
        private=tuple(
            (owner, own_text, _facts(facts)) for owner, (own_text, facts) in sorted((private or {}).items())
        ),
    )


def entry_view(item: LogEntry, seat: int | None) -> dict[str, Any]:
    """One entry as ``seat`` may see it (``None``: a spectator, public facts only)."""
    cached = _SHOWN.get(id(item) if not item.private else (id(item), seat))
    if cached is None:
        return _uncached(item, seat)
    return _fresh(cached)


def log_view(log: Sequence[LogEntry], seat: int | None) -> list[dict[str, Any]]:
    shown = []
    get = _SHOWN.get
    loads = marshal.loads
    for item in log:
        cached = get(id(item) if not item.private else (id(item), seat))
        if cached is None:
            shown.append(_uncached(item, seat))
            continue
        # _fresh, inlined: logs run to hundreds of entries.
        if cached[3] is not None:
            shown.append(loads(cached[3]))
            continue
        fresh = cached[1].copy()
        for key in cached[2]:
            fresh[key] = fresh[key].copy()
        shown.append(fresh)
    return shown


def entry_reveal(item: LogEntry) -> dict[str, Any]:
    """One entry with every seat's private part: for ``Game.reveal`` (finished matches only).

    It reads as a spectator's entry (the public text and facts) plus:

    - ``as_seen_by``: per seat with a private part (the seat as a string, JSON keys
      being strings), that seat's own text and facts; the entry as that seat's view
      shows it is the public entry updated with these;
    - a private fact that no public fact names and no two seats give differently
      (a card only its drawer saw, a Peek's result) is also put beside the public
      facts, where a board reading the entry finds it.

    Not cached like ``log_view``: replays call it, bots never do.
    """
    shown: dict[str, Any] = {"event": item.event, "seat": item.seat, "text": item.text}
    shown.update(json.loads(item.public))
    if not item.private:
        return shown
    seen_by: dict[str, dict[str, Any]] = {}
    merged: dict[str, Any] = {}
    clashing: set[str] = set()
    for owner, own_text, facts in item.private:
        own: dict[str, Any] = json.loads(facts)
        seen_by[str(owner)] = {"text": own_text, **own}
        for key, value in own.items():
            if key in shown:
                continue  # the public fact is what everyone saw
            if key in merged and merged[key] != value:
                clashing.add(key)  # each seat's own (a hand each was dealt)
            merged.setdefault(key, value)
    shown.update((key, value) for key, value in merged.items() if key not in clashing)
    shown["as_seen_by"] = seen_by
    return shown


def log_reveal(log: Sequence[LogEntry]) -> list[dict[str, Any]]:
    """Every entry with every seat's private part (``entry_reveal``)."""
    return [entry_reveal(item) for item in log]


# -- the cache behind entry_view and log_view ----------------------------------------
#
# Views are built often (a bot's search builds one per step) from logs that share most
# of their entries, so an entry's view is parsed from its JSON once and then copied:
# every call still returns new dicts and lists, which the caller may change freely. An
# entry is immutable, so its view for a seat never changes. The cache is keyed by the
# entry's ``id``, and an entry's keys go when the entry does: a weak reference to it
# forgets them as it dies, before its id can be given to another object. So the cache
# holds what live states show (a bot's search, a move being drawn) and no more: it
# once held each entry itself, and a site process's cache grew with every state it had
# decoded, for minutes (bench/README.md, "The soak"). An entry is cached the second time
# it is shown: most entries a bot's playouts make are shown once or never.

# (the entry's watch, its view, the keys whose values are flat lists or dicts, or else
# the view marshalled when something in it is nested deeper)
_Key = int | tuple[int, int | None]


class _Watch(weakref.ref[LogEntry]):
    """A weak reference to a shown entry that forgets the entry's keys when it dies."""

    __slots__ = ("keys",)

    # ``ref.__new__`` takes the entry and the callback (``_forget``) and does the work.
    def __init__(self, item: LogEntry, callback: Callable[[_Watch], None]) -> None:
        self.keys: list[_Key] = []


def _forget(watch: _Watch) -> None:
    for key in watch.keys:
        _SHOWN.pop(key, None)
        _SHOWN_ONCE.pop(key, None)


_Cached = tuple[_Watch, dict[str, Any], tuple[str, ...], bytes | None]
_SHOWN: dict[_Key, _Cached] = {}
# Entries shown once (by the same keys), watched like those of _SHOWN.
_SHOWN_ONCE: dict[_Key, _Watch] = {}
# Views held at most (an entry with private parts has one per seat): a bound for a
# search that keeps very many states alive; then it restarts.
_SHOWN_LIMIT = 20_000
_PLAIN = (str, int, float, bool, type(None))


def _parse(item: LogEntry, seat: int | None) -> dict[str, Any]:
    shown: dict[str, Any] = {"event": item.event, "seat": item.seat, "text": item.text}
    shown.update(json.loads(item.public))
    if seat is not None:
        for owner, own_text, facts in item.private:
            if owner == seat:
                shown["text"] = own_text
                shown.update(json.loads(facts))
    return shown


def _uncached(item: LogEntry, seat: int | None) -> dict[str, Any]:
    key = id(item) if not item.private else (id(item), seat)
    watch = _SHOWN_ONCE.pop(key, None)
    if watch is None:
        if len(_SHOWN_ONCE) >= _SHOWN_LIMIT:
            _SHOWN_ONCE.clear()
        watch = _Watch(item, _forget)
        watch.keys.append(key)
        _SHOWN_ONCE[key] = watch
        return _parse(item, seat)
    cached = _remember(item, watch, key, seat)
    return _parse(item, seat) if cached is None else _fresh(cached)


def _remember(item: LogEntry, watch: _Watch, key: _Key, seat: int | None) -> _Cached | None:
    """Parse ``item`` for ``seat`` and cache it with how to copy it: a shallow copy plus
    a copy of each flat list or dict in it, or else ``marshal`` (a fast exact copy of
    JSON data; dicts keep their key order). None, uncached: something is not JSON data."""
    shown = _parse(item, seat)
    nested: list[str] = []
    frozen: bytes | None = None
    for name, value in shown.items():
        if type(value) in _PLAIN:
            continue
        kind = type(value)
        if (kind is dict or kind is list) and all(type(part) in _PLAIN for part in _values(value)):
            nested.append(name)
            continue
        try:
            frozen = marshal.dumps(shown)
        except ValueError:
            return None
        nested = []
        break
    cached: _Cached = (watch, shown, tuple(nested), frozen)
    if len(_SHOWN) >= _SHOWN_LIMIT:
        _SHOWN.clear()
    _SHOWN[key] = cached
    return cached


def _values(container: dict[str, Any] | list[Any]) -> Iterable[Any]:
    return container.values() if type(container) is dict else container


def _fresh(cached: _Cached) -> dict[str, Any]:
    if cached[3] is not None:
        fresh: dict[str, Any] = marshal.loads(cached[3])
        return fresh
    fresh = cached[1].copy()
    for key in cached[2]:
        fresh[key] = fresh[key].copy()
    return fresh


def render_text(text: str, names: Sequence[str], viewer: int | None = None) -> str:
    """Replace ``{sN}`` seat marks with display names (unknown seats read "Seat N+1").

    In the text a seat's own player reads (``viewer``: their seat), their own mark reads
    "you": "You drew 'lip'", "Ann gave you 'lip'", "your box", never their own name
    beside the "You ..." lines of their private view. A verb right after it agrees
    ("you are", "you ask": ``_YOU_VERBS``, the present-tense verbs the games' texts use
    after a mark); "you" starts with a capital where a sentence starts."""

    def replace(match: re.Match[str]) -> str:
        index, possessive, space, word = int(match.group(1)), match.group(2), match.group(3), match.group(4)
        following = (space or "") + (word or "")
        if index != viewer:
            return _name(index, names) + (possessive or "") + following
        if possessive:
            you = "your"
        else:
            you = "you"
            following = (space or "") + (_YOU_VERBS.get(word, word) if word else "")
        starts_sentence = not text[: match.start()].strip() or text[: match.start()].rstrip()[-1] in ".!?:"
        return (you.capitalize() if starts_sentence else you) + following

    return _MARK_AND_NEXT.sub(replace, text)


# The present-tense verbs the games' log texts put right after a seat's mark, as "you"
# says them (tests/engine/test_log_you.py reads every text the games write for others).
_YOU_VERBS = {
    "is": "are", "has": "have", "was": "were", "does": "do", "asks": "ask", "calls": "call",
    "cuts": "cut", "gets": "get", "gives": "give", "goes": "go", "holds": "hold", "keeps": "keep",
    "lets": "let", "loses": "lose", "misses": "miss", "names": "name", "opens": "open",
    "passes": "pass", "plays": "play", "scores": "score", "takes": "take", "turns": "turn",
    "wins": "win", "draws": "draw",
}  # fmt: skip
_MARK_AND_NEXT = re.compile(r"\{s(\d+)\}('s\b)?(?:( )([A-Za-z]+))?")


def _name(index: int, names: Sequence[str]) -> str:
    return names[index] if index < len(names) else f"Seat {index + 1}"
