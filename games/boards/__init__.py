"""What a match page shows of a game, built from one seat's view only.

The server renders every board from ``game.view(state, seat)`` plus the seat's
legal actions (what the seat may do is its own knowledge), never from the state
itself: that is what keeps hidden information off the page. ``build_board`` is the
only place that touches the state; everything after it (the per-game presenter in
``games/boards/<game>.py`` and the Jinja2 template
``templates/jinja2/games/<slug>/board.html``) sees the ``Board`` alone.

A per-game presenter module, ``games/boards/<game.module_name>.py`` (found by that
name, so adding a game edits no list here), has two functions:

- ``label(view, action) -> str``: the words on the button for one legal action,
  naming players by seat marks as log texts do (``{s1}``: the board puts names in);
- ``prepare(board) -> dict``: extra template context (grids, hands, which action
  belongs to which card...), available to the template as ``board.extra``;

and may have hooks that the rest of the site asks for when a game needs them:

- ``choice_label(option, choice) -> str | None``: the lobby's words for one choice
  of an option, where the game has more to say than the choice's own name;
- ``SCORE_UNITS = (singular, plural)``: what a final score counts ("pair", "pairs" in
  Go Fox!), where it is not points (``score_in_words``).

Every legal action must be reachable from the board as exactly one button made by
``{% call actform(act) %}...{% endcall %}`` (``games/templatetags/boards.py``):
tests and the browser drive games through those buttons.
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe

from games.engine import Game
from games.engine.log import render_text


class NoPresenter(LookupError):
    """A registered game has no presenter module: a bug to fix, not a page to show."""


def presenter_for(game: Game[Any]) -> ModuleType:
    """The game's presenter module, ``games.boards.<module_name>``."""
    path = f"{__name__}.{game.module_name}"
    try:
        return importlib.import_module(path)
    except ModuleNotFoundError as error:
        # Only the presenter itself being absent is "no presenter"; a presenter that
        # imports something missing is a different bug and keeps its own traceback.
        if error.name != path:
            raise
        raise NoPresenter(f"{game.name} ({game.slug}) has no presenter: {path} does not exist.") from None


def score_in_words(game: Game[Any], score: float) -> str:
    """A final score as the game counts it: "16 pairs", "1 gem", "23 points"."""
    singular, plural = getattr(presenter_for(game), "SCORE_UNITS", ("point", "points"))
    number = f"{score:g}" if isinstance(score, float) else str(score)
    return f"{number} {singular if score == 1 else plural}"


def action_json(action: dict[str, Any]) -> str:
    """The canonical text of an action: what a button carries and a form posts back."""
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class ActionButton:
    action: dict[str, Any]
    label: str

    @property
    def json(self) -> str:
        return action_json(self.action)

    @property
    def type(self) -> str:
        return str(self.action.get("type", ""))


@dataclass
class Board:
    game: Game[Any]
    view: dict[str, Any]
    seat: int | None  # the viewer's seat; None for a spectator
    names: list[str]  # display names, one per seat
    to_act: list[int]  # seats that owe a decision now
    actions: list[ActionButton]  # the viewer's legal actions (empty unless the viewer owes one)
    result: dict[str, Any] | None
    ply: int
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def slug(self) -> str:
        return self.game.slug

    @property
    def template(self) -> str:
        return f"games/{self.game.slug}/board.html"

    @property
    def my_turn(self) -> bool:
        return bool(self.actions)

    @property
    def log(self) -> list[dict[str, Any]]:
        """The view's log, newest first, each entry with its text in display names (the
        viewer's own seat as "you")."""
        entries = self.view.get("log") or []
        return [
            {**item, "text": render_text(str(item.get("text", "")), self.names, self.seat)}
            for item in reversed(entries)
        ]

    def name(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.names):
            return ""
        return self.names[seat]

    def names_text(self, seats: list[int]) -> str:
        """Seats in words, the viewer as "you": "Ann", "Ann and you", "Ann, Bob and you"."""
        names = ["you" if seat == self.seat else self.name(seat) for seat in seats]
        if len(names) <= 1:
            return "".join(names)
        return ", ".join(names[:-1]) + " and " + names[-1]

    def action_for(self, **fields: Any) -> ActionButton | None:
        """The legal action whose fields include all of ``fields`` (templates find buttons by it)."""
        for button in self.actions:
            if all(button.action.get(key) == value for key, value in fields.items()):
                return button
        return None

    def actions_of(self, kind: str) -> list[ActionButton]:
        return [button for button in self.actions if button.type == kind]


def build_board(
    game: Game[Any],
    state: Any,
    seat: int | None,
    names: list[str],
    ply: int,
    *,
    view: dict[str, Any] | None = None,
    playable: bool = True,
    stopped: str | None = None,
) -> Board:
    """The board one viewer sees; ``seat=None`` for a spectator. ``view``: another view
    of ``state`` to draw instead of the seat's own, with no buttons (a replay's
    "everything revealed", from ``game.reveal``, for finished matches only).
    ``playable=False`` draws it without buttons (a replay is looked at, never played):
    decided here, before the presenter groups buttons into its own controls.
    ``stopped``: why the match ended before the game did (a resignation, a forfeit):
    nobody is to act any more, there are no buttons, and that is the board's prompt
    instead of the turn the game stood at."""
    to_act = [] if stopped else game.to_act(state)
    presenter = presenter_for(game)
    if view is None:
        view = game.view(state, seat)
        legal = game.legal_actions(state, seat) if playable and seat is not None and seat in to_act else []
    else:
        legal = []
    board = Board(
        game=game,
        view=view,
        seat=seat,
        names=names,
        to_act=to_act,
        # A label names players by seat marks, as log texts do ("{s1}'s card"): the
        # presenter sees the view, the names are put in here.
        actions=[ActionButton(action, render_text(presenter.label(view, action), names)) for action in legal],
        result=game.result(state),
        ply=ply,
    )
    board.extra = presenter.prepare(board)
    if stopped:
        board.extra["prompt"] = stopped  # every presenter has one (tests/games/test_pages.py)
    return board


def stopped_words(*, cancelled: bool, resigned: list[tuple[str, bool]]) -> str:
    """Why a match ended before its game did, for ``build_board(stopped=...)``.
    ``resigned``: who resigned, in seat order, as (name, on time), the viewer's seat
    named "You": "The match is over: Bob resigned.", "… You forfeited on time."."""
    if cancelled:
        return "This match was cancelled."
    said = [f"{name} {'forfeited on time' if on_time else 'resigned'}" for name, on_time in resigned]
    if not said:
        return "The match is over."
    return (
        "The match is over: "
        + (said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1])
        + "."
    )


def render_board(board: Board, context: dict[str, Any] | None = None) -> str:
    """The game's own board template for ``board`` alone (a replay's frame; the match page
    draws it inside its live part, games/live/fragments.py). ``context`` may name the
    ``match_id`` whose action URL its buttons post to, and their ``csrf_token``."""
    context = {"board": board, **(context or {})}
    match_id = context.get("match_id")
    context.setdefault("act_url", reverse("match_act", args=[match_id]) if match_id else "")
    # A Jinja2 template, as the live part is (boomsite/jinja2.py); escaped as it was drawn,
    # so safe in a Django page (Django's Jinja2 backend returns str).
    return mark_safe(render_to_string(board.template, context, using="jinja2"))
