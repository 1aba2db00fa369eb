"""What the three word-card board tests (Ka-Blam!, Go Fox!, Read and Grab) share: a
reading of a rendered board that keeps the order of its buttons (action buttons and
say-it-aloud buttons alike). Their states come from ``helpers.find_state``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

from games.engine import Game
from tests.games.boards.helpers import board_html


@dataclass
class Button:
    attrs: dict[str, str]
    in_form: bool
    text: str = ""

    @property
    def action(self) -> dict[str, Any] | None:
        raw = self.attrs.get("data-action")
        return None if raw is None else json.loads(raw)

    @property
    def is_speak(self) -> bool:
        return "speak" in self.attrs.get("class", "").split()


@dataclass
class Page:
    """A rendered board: its buttons in page order, and its text without tags."""

    html: str
    buttons: list[Button] = field(default_factory=list)
    text: str = ""

    @property
    def said(self) -> list[str]:
        """Every word a say-it-aloud button speaks, in page order."""
        return [button.attrs["data-say"] for button in self.buttons if button.is_speak]

    def button_for(self, action: dict[str, Any]) -> Button:
        found = [button for button in self.buttons if button.action == action]
        assert len(found) == 1, (action, len(found))
        return found[0]

    def said_after(self, action: dict[str, Any]) -> str:
        """What the first say-it-aloud button after an action's button speaks (the card it sits on)."""
        index = self.buttons.index(self.button_for(action))
        return next(button.attrs["data-say"] for button in self.buttons[index + 1 :] if button.is_speak)


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.page = Page("")
        self.forms = 0
        self.open_button: Button | None = None
        self.texts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "form":
            self.forms += 1
        elif tag == "button":
            assert self.open_button is None, "a button inside a button"
            self.open_button = Button({key: value or "" for key, value in attrs}, self.forms > 0)
            self.page.buttons.append(self.open_button)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.forms -= 1
        elif tag == "button":
            self.open_button = None

    def handle_data(self, data: str) -> None:
        self.texts.append(data)
        if self.open_button is not None:
            self.open_button.text += data


def read(page_html: str) -> Page:
    reader = _Reader()
    reader.feed(page_html)
    reader.close()
    page = reader.page
    page.html = page_html
    page.text = " ".join(" ".join(reader.texts).split())
    return page


def board_page(game: Game[Any], state: Any, seat: int | None) -> Page:
    return read(board_html(game, state, seat))


def check_markup(page: Page) -> None:
    """Cards drawn inside action buttons stay markup (not escaped text), and every
    say-it-aloud button is a plain button of its own: never an action, never in a form."""
    assert "&lt;" not in page.html
    for button in page.buttons:
        if button.is_speak:
            assert button.attrs == {
                "type": "button",
                "class": "speak",
                "data-say": button.attrs["data-say"],
                "aria-label": f"Say {button.attrs['data-say']}",
            }
            assert not button.in_form
            assert button.attrs["data-say"]
