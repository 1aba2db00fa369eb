"""The lobby's pages through the test client: the open-matches list and the new-match
form's invite boxes (issue 21)."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from accounts.models import User
from games.services import SeatRequest, match_create
from tests.games.helpers import logged_in

pytestmark = pytest.mark.django_db


class Elements(HTMLParser):
    """Each element's tag, attributes and the tags it sits in, in page order."""

    VOID = {"input", "br", "img", "meta", "link", "hr", "source", "wbr"}

    def __init__(self) -> None:
        super().__init__()
        self.open: list[tuple[str, dict[str, str]]] = []
        self.found: list[tuple[str, dict[str, str], list[tuple[str, dict[str, str]]]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {name: value or "" for name, value in attrs}
        self.found.append((tag, attributes, list(self.open)))
        if tag not in self.VOID:
            self.open.append((tag, attributes))

    def handle_endtag(self, tag: str) -> None:
        while self.open:
            if self.open.pop()[0] == tag:
                break


def elements(page: str) -> list[tuple[str, dict[str, str], list[tuple[str, dict[str, str]]]]]:
    parser = Elements()
    parser.feed(page)
    return parser.found


@pytest.mark.parametrize("path", ["/play/", "/play/dont-go-boom/"])
def test_each_open_match_is_one_row_with_its_join_button_inside(ann: User, bob: User, path: str) -> None:
    for _ in range(2):
        match_create(
            creator=ann, game_slug="dont-go-boom", options={}, visibility="public",
            seats=[SeatRequest("me"), SeatRequest("open")],
        )  # fmt: skip
    found = elements(logged_in(bob).get(path).content.decode())
    rows = [attrs for tag, attrs, _ in found if tag == "li" and "match-row" in attrs.get("class", "")]
    assert len(rows) == 2
    for tag, _attrs, parents in found:
        if tag == "li":
            assert "li" not in [parent for parent, _ in parents], "a list item inside a list item"
    joins = [parents for tag, attrs, parents in found if tag == "form" and "/join" in attrs.get("action", "")]
    assert len(joins) == 2
    for parents in joins:
        assert any(parent == "li" and "match-row" in attrs.get("class", "") for parent, attrs in parents)


def test_each_invite_box_has_a_label_of_its_own_that_shows(ann: User) -> None:
    found = elements(logged_in(ann).get("/play/dont-go-boom/").content.decode())
    boxes = [
        (attrs, parents)
        for tag, attrs, parents in found
        if tag == "input" and attrs.get("name", "").endswith("_username")
    ]
    assert len(boxes) == 6
    labels = {attrs["for"]: attrs for tag, attrs, _ in found if tag == "label" and "for" in attrs}
    for box, parents in boxes:
        # Without :has() every box shows, so each says what it is for; with it, the box
        # and its label show as one, beside a seat set to "Invite a player…" (site.css).
        assert "visually-hidden" not in labels[box["id"]].get("class", "")
        assert "seat-invite" in [attrs.get("class", "") for _, attrs in parents]
