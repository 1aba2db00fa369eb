"""The API's documentation as served (games/api_docs.py): the reference rendered to HTML,
a page per game written from its schemas, and the JSON Schemas themselves."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from jsonschema import Draft202012Validator

from accounts.models import User
from games.api_docs import render_markdown
from games.engine import all_games
from games.engine.schemas import view_schema
from games.models import Match
from tests.games.helpers import api, token_for

pytestmark = pytest.mark.django_db

SLUGS = [game.slug for game in all_games()]
# What a programmer must not be sent to: files of the repository (the example bots the
# site serves, /api/examples/<name>, are not: they are named as the file one saves).
REPOSITORY_PATH = re.compile(r"\bdocs/|\b(?!stream_bot\.py)[\w/]+\.py\b|\bgames/engine\b|\bboomsite/")


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Page(HTMLParser):
    """What a test reads in a page: ids, tags and visible text, and the headings and
    links of the documentation itself (its contents and its article, not the site's menu)."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.headings: list[tuple[str, str | None]] = []  # (tag, id), in the article
        self.tags: list[str] = []
        self.links: list[str] = []
        self.text: list[str] = []
        self._open: list[tuple[str, str]] = []  # (tag, region: "article", "toc" or "")
        self.feed(html)

    @property
    def words(self) -> str:
        return " ".join(" ".join(self.text).split())

    def _region(self) -> str:
        return next((region for _, region in reversed(self._open) if region), "")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.tags.append(tag)
        if found.get("id"):
            self.ids.add(str(found["id"]))
        if tag not in VOID:
            region = "article" if tag == "article" else "toc" if "api-toc" in str(found.get("class")) else ""
            self._open.append((tag, region))
        if tag in ("h1", "h2", "h3", "h4") and self._region() == "article":
            self.headings.append((tag, found.get("id")))
        if tag == "a" and found.get("href") and self._region():
            self.links.append(str(found["href"]))

    def handle_endtag(self, tag: str) -> None:
        while self._open:
            if self._open.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        if not any(tag in ("script", "style", "head") for tag, _ in self._open):
            self.text.append(data)


def page(path: str) -> Page:
    answer = Client().get(path)
    assert answer.status_code == 200, path
    assert answer["Content-Type"].startswith("text/html")
    return Page(answer.content.decode())


def test_the_reference_is_a_readable_page_with_contents_tables_and_code() -> None:
    reference = page(reverse("api_docs"))
    assert [tag for tag, _ in reference.headings].count("h1") == 1
    sections = [heading_id for tag, heading_id in reference.headings if tag in ("h2", "h3")]
    assert len(sections) >= 10 and all(sections), "every section heading has an id"
    for wanted in ("authentication", "errors", "streams", "views-and-actions-of-each-game"):
        assert wanted in reference.ids
    # The contents link to the sections, and every section is in the contents.
    in_page = {link[1:] for link in reference.links if link.startswith("#")}
    assert set(sections) <= in_page and in_page <= reference.ids
    assert "table" in reference.tags and "th" in reference.tags
    assert reference.tags.count("pre") >= 5 and "code" in reference.tags
    assert "GET /api/matches/<id>" in reference.words  # code in headings, escaped, not lost
    assert not REPOSITORY_PATH.search(reference.words), REPOSITORY_PATH.search(reference.words)


def test_every_link_of_the_reference_within_the_site_answers() -> None:
    reference = page(reverse("api_docs"))
    inside = sorted({link for link in reference.links if link.startswith("/")})
    for slug in SLUGS:
        assert reverse("api_game_docs", args=[slug]) in inside
        assert reverse("api_view_schema", args=[slug]) in inside
        assert reverse("api_action_schema", args=[slug]) in inside
    client = Client()
    for link in inside:
        # The History page asks a visitor to sign in first; everything else is public.
        assert client.get(link).status_code in (200, 302), link


def test_raw_html_in_the_markdown_is_shown_as_text() -> None:
    rendered = render_markdown(
        "# Title\n\n<script>alert(1)</script>\n\nSome <b onclick='x()'>bold</b> words.\n\n"
        '| a | b |\n|---|---|\n| 1 | 2 |\n\n```json\n{"a": "<i>"}\n```\n'
    )
    html = str(rendered.html)
    assert "<script" not in html and "<b " not in html and "<i>" not in html
    assert "&lt;script&gt;" in html and "&lt;b onclick" in html
    assert "<table>" in html and '<h1 id="title">' in html
    assert '<pre tabindex="0"><code class="language-json">' in html


@pytest.mark.parametrize("slug", SLUGS)
def test_each_game_has_a_page_of_its_view_and_actions(slug: str) -> None:
    game_page = page(reverse("api_game_docs", args=[slug]))
    schema = view_schema(slug)
    words = game_page.words
    for key in schema["properties"]:
        assert key in words, f"{slug}: the view's {key} is not on the page"
    for name, part in schema["$defs"].items():
        assert f"type-{name}" in game_page.ids, f"{slug}: no section for {name}"
        if name.startswith("log_"):
            assert part["title"] in words
    for kind in all_games()[SLUGS.index(slug)].action_schemas:
        assert f"action-{kind}" in game_page.ids
    # Every type named in a table links to its section on the page.
    anchors = {link[1:] for link in game_page.links if link.startswith("#")}
    assert anchors <= game_page.ids
    assert "table" in game_page.tags
    assert not REPOSITORY_PATH.search(words), REPOSITORY_PATH.search(words)
    client = Client()
    for link in {link for link in game_page.links if link.startswith("/")}:
        assert client.get(link).status_code == 200, link


def test_an_unknown_game_has_no_page() -> None:
    assert Client().get("/api/games/chess/").status_code == 404


@pytest.mark.parametrize("slug", SLUGS)
def test_the_schemas_are_served_as_json_schema_with_their_address(slug: str) -> None:
    client = Client()
    for name in ("api_view_schema", "api_action_schema"):
        path = reverse(name, args=[slug])
        answer = client.get(path)
        assert answer.status_code == 200
        assert answer["Content-Type"] == "application/schema+json"
        assert "public" in answer["Cache-Control"] and "max-age=3600" in answer["Cache-Control"]
        document = json.loads(answer.content)
        assert document["$id"] == f"http://testserver{path}"
        Draft202012Validator.check_schema(document)
        again = client.get(path, headers={"If-None-Match": answer["ETag"]})
        assert again.status_code == 304


def test_an_unknown_game_s_schema_is_the_api_s_error() -> None:
    answer = Client().get("/api/schemas/chess/view.json")
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "no_such_game"
    assert Client().post(reverse("api_view_schema", args=["go-fox"])).status_code == 405


def test_what_the_api_sends_matches_the_served_schemas(two_player_match: Match, ann: User) -> None:
    """End to end: a program's document, checked against the schemas it can download."""
    client = Client()
    view = Draft202012Validator(json.loads(client.get("/api/schemas/dont-go-boom/view.json").content))
    action = Draft202012Validator(json.loads(client.get("/api/schemas/dont-go-boom/action.json").content))
    document: dict[str, Any] = api("GET", f"/api/matches/{two_player_match.pk}", token_for(ann)).json()
    assert view.is_valid(document["view"]), next(iter(view.iter_errors(document["view"]))).message
    assert document["legal_actions"] and all(action.is_valid(legal) for legal in document["legal_actions"])


def test_the_pages_ask_the_database_nothing_for_a_visitor(django_assert_max_num_queries: Any) -> None:
    client = Client()
    with django_assert_max_num_queries(0):
        client.get(reverse("api_docs"))
        client.get(reverse("api_game_docs", args=["go-fox"]))
        client.get(reverse("api_view_schema", args=["go-fox"]))


def test_the_exports_format_and_the_example_bot_are_served() -> None:
    """The reference links them, and a programmer has only the site: the exports' format
    as a page like the reference, the streaming bot as the file to save."""
    exports = page(reverse("api_export_docs"))
    assert "table" in exports.tags and "Exporting matches" in exports.words
    assert not REPOSITORY_PATH.search(exports.words), REPOSITORY_PATH.search(exports.words)
    bot = Client().get(reverse("api_example", args=["stream_bot.py"]))
    assert bot.status_code == 200 and bot["Content-Type"] == "text/plain; charset=utf-8"
    assert bot.content.decode().startswith(("#!", '"""', "#"))
    assert "import json" in bot.content.decode()
    assert Client().get(reverse("api_example", args=["settings.py"])).status_code == 404
