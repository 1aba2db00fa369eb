"""The lobby's form: built from the game's declared options and its seat range.

``option_form_fields`` and ``time_control_choices`` are the builders: the tournament
admin's form uses them too, so a game's options and the time controls read the same
wherever a match or a tournament is set up."""

from __future__ import annotations

from typing import Any

from django import forms

from games import clocks
from games.boards.option_words import choice_words
from games.bots import levels_for
from games.engine import Game
from games.models import Match
from games.services import SeatRequest

PEOPLE_CHOICES = [
    ("", "— no seat —"),
    ("me", "Me"),
    ("open", "Open seat (anyone may join)"),
    ("invite", "Invite a player…"),
]


def seat_choices(game: Game[Any]) -> list[tuple[str, str]]:
    """Who may take a seat: people, and the bot levels that play this game."""
    return [*PEOPLE_CHOICES, *[(f"bot-{level}", f"{level.title()} Bot") for level in levels_for(game)]]


def default_seats(game: Game[Any]) -> list[str]:
    """The seats a new match starts with, as ``seat_choices`` values: me, then as many
    more as the game needs (two seats at least where it allows them), open, or the random
    bot in a game one can play alone. The lobby's form starts from them; the API's
    ``POST /api/matches`` takes them when no seats are sent."""
    others = max(game.min_players, 2 if game.max_players > 1 else 1) - 1
    return ["me", *["bot-random" if game.min_players == 1 else "open"] * others]


def seat_request(choice: str, username: str = "") -> SeatRequest | None:
    """The seat a ``seat_choices`` value asks for (``username``: whom "invite" invites);
    None for a value that is none of them."""
    if choice in ("me", "open"):
        return SeatRequest(choice)  # type: ignore[arg-type]
    if choice == "invite":
        return SeatRequest("invite", username=username)
    if choice.startswith("bot-"):
        return SeatRequest("bot", level=choice.removeprefix("bot-"))
    return None


def _option_field(game: Game[Any], option: dict[str, Any]) -> forms.Field:
    label, help_text, default = option["label"], option.get("help", ""), option["default"]
    if option["kind"] == "int":
        return forms.IntegerField(
            label=label, help_text=help_text, initial=default,
            min_value=option["minimum"], max_value=option["maximum"],
        )  # fmt: skip
    if option["kind"] == "choice":
        return forms.ChoiceField(
            label=label, help_text=help_text, initial=default,
            choices=[(choice, choice_words(game, option["name"], str(choice))) for choice in option["choices"]],
        )  # fmt: skip
    return forms.BooleanField(label=label, help_text=help_text, initial=default, required=False)


def option_form_fields(game: Game[Any], *, prefix: str = "option_") -> dict[str, forms.Field]:
    """A form field for each option the game declares, named ``prefix`` + the option's
    name, in the order the game declares them, starting from the option's default."""
    return {f"{prefix}{option.name}": _option_field(game, option.as_data()) for option in game.options}


def options_from_cleaned(
    game: Game[Any], cleaned: dict[str, Any], *, prefix: str = "option_"
) -> dict[str, Any]:
    """The options a form built with ``option_form_fields`` was sent with, by option name."""
    return {option.name: cleaned.get(f"{prefix}{option.name}") for option in game.options}


# The presets, and every whole number of days up to 14 ("days per move").
TIME_CONTROLS: list[int | None] = [
    None,
    *sorted(
        {limit for limit, _ in clocks.PRESETS if limit is not None}
        | {days * clocks.DAY for days in range(1, clocks.MAX_DAYS + 1)}
    ),
]


def time_control_choices(*, with_none: bool = True) -> list[tuple[str, str]]:
    """The time controls to choose from, in words ("1 hour per turn"); without "No time
    limit" where one is required (a tournament's)."""
    return [
        ("" if limit is None else str(limit), clocks.describe(limit))
        for limit in TIME_CONTROLS
        if with_none or limit is not None
    ]


class MatchCreateForm(forms.Form):
    visibility = forms.ChoiceField(choices=Match.Visibility.choices, initial=Match.Visibility.PUBLIC)
    turn_limit = forms.TypedChoiceField(
        label="Time control",
        choices=time_control_choices(),
        # **Decision** (issue 34): a day per turn unless the person chooses otherwise: the
        # site is for play at one's own pace, and a match with no limit can stall forever.
        initial=str(clocks.DAY),
        coerce=int,
        empty_value=None,
        required=False,
        help_text="Each player's time per turn. When it runs out, the autopilot plays that turn for them; "
        "after three in a row they forfeit. Vacation pauses it.",
    )

    def __init__(self, game: Game[Any], *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.game = game
        self.fields.update(option_form_fields(game))
        self.option_names = [option.name for option in game.options]
        self.seat_count = game.max_players
        choices = seat_choices(game)
        starting = default_seats(game)
        for index in range(game.max_players):
            initial = starting[index] if index < len(starting) else ""
            self.fields[f"seat_{index}"] = forms.ChoiceField(
                label=f"Seat {index + 1}", choices=choices, initial=initial, required=False
            )
            self.fields[f"seat_{index}_username"] = forms.CharField(
                label=f"Seat {index + 1}: username to invite", required=False, max_length=150
            )

    def choices_to_remember(self) -> dict[str, Any]:
        """What this form was sent with, field by field, for the next one to start from
        (kept in the session: a new match is usually set up like the last)."""
        remembered: dict[str, Any] = {}
        for name, field in self.fields.items():
            if isinstance(field, forms.BooleanField):
                remembered[name] = self.cleaned_data.get(name, False)  # unticked is a choice too
            elif self.data.get(name) is not None:
                remembered[name] = self.data.get(name)
        return remembered

    def seat_rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [(self[f"seat_{index}"], self[f"seat_{index}_username"]) for index in range(self.seat_count)]

    def option_fields(self) -> list[forms.BoundField]:
        return [self[f"option_{name}"] for name in self.option_names]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        seats: list[SeatRequest] = []
        for index in range(self.seat_count):
            kind = cleaned.get(f"seat_{index}") or ""
            username = (cleaned.get(f"seat_{index}_username") or "").strip()
            if kind == "":
                continue
            if kind == "invite" and not username:
                self.add_error(f"seat_{index}_username", "Whom should we invite to this seat?")
            request = seat_request(kind, username)
            if request is not None:  # the field's choices allow no other
                seats.append(request)
        cleaned["seats"] = seats
        cleaned["options"] = options_from_cleaned(self.game, cleaned)
        return cleaned
