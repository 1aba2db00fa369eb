"""Game options declared as data.

Each game lists its options once (name, kind, default, allowed values, label). The
engine parses and checks what a caller passes to ``new``; the site builds its
match form and admin choices from ``option_specs`` without knowing the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from games.engine.errors import IllegalAction

OptionValue = int | str | bool


@dataclass(frozen=True, slots=True)
class Option:
    name: str
    label: str
    kind: Literal["int", "choice", "bool"]
    default: OptionValue
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    help: str = ""

    def parse(self, value: object) -> OptionValue:
        if self.kind == "bool":
            if type(value) is not bool:
                raise _bad(self, f"must be true or false, not {_short(value)}")
            return value
        if self.kind == "int":
            if type(value) is not int:
                raise _bad(self, f"must be a whole number, not {_short(value)}")
            if (self.minimum is not None and value < self.minimum) or (
                self.maximum is not None and value > self.maximum
            ):
                raise _bad(self, f"must be between {self.minimum} and {self.maximum}, not {value}")
            return value
        if not isinstance(value, str) or value not in self.choices:
            raise _bad(self, f"must be one of {', '.join(self.choices)}, not {_short(value)}")
        return value

    def as_data(self) -> dict[str, Any]:
        """JSON-ready description, for forms, the admin and API clients."""
        data: dict[str, Any] = {
            "name": self.name,
            "label": self.label,
            "kind": self.kind,
            "default": self.default,
            "help": self.help,
        }
        if self.kind == "choice":
            data["choices"] = list(self.choices)
        if self.kind == "int":
            data["minimum"] = self.minimum
            data["maximum"] = self.maximum
        return data


def int_option(name: str, label: str, default: int, minimum: int, maximum: int, help: str = "") -> Option:
    return Option(name, label, "int", default, minimum=minimum, maximum=maximum, help=help)


def choice_option(name: str, label: str, default: str, choices: Sequence[str], help: str = "") -> Option:
    return Option(name, label, "choice", default, choices=tuple(choices), help=help)


def bool_option(name: str, label: str, default: bool, help: str = "") -> Option:
    return Option(name, label, "bool", default, help=help)


def _short(value: object) -> str:
    """A bad value as players see it in the message: never an echo of a huge input."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _bad(option: Option, problem: str) -> IllegalAction:
    return IllegalAction("bad_option", f"The option {option.name!r} {problem}.")


def parse_options(declared: Sequence[Option], given: Mapping[str, object] | None) -> dict[str, OptionValue]:
    """Defaults filled in, every given value checked; unknown names are refused."""
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        raise IllegalAction("bad_option", "Options must be given as a mapping of names to values.")
    known = {option.name: option for option in declared}
    unknown = sorted(str(name) for name in given if name not in known)
    if unknown:
        raise IllegalAction("unknown_option", f"This game has no option {', '.join(unknown)}.")
    return {
        name: option.parse(given[name]) if name in given else option.default for name, option in known.items()
    }
