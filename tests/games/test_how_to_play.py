"""The how-to-play pages (games/how_to_play.py): one per game, linked from the lobby,
the game's page and the match header, through the test client."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts.models import User
from games.engine import all_games, get
from games.how_to_play import has_how_to_play
from games.models import Match
from games.services import SeatRequest, match_create
from tests.games.helpers import logged_in

pytestmark = pytest.mark.django_db

# A drawing each page borrows from its board (the partial's own CSS class).
DRAWINGS = {
    "booby-trap": 'class="bt-chip bt-large"',
    "boom-box": 'class="bb-box bb-box--red',
    "dont-go-boom": 'class="dgb-card dgb-card--bomb',
    "go-fox": 'class="wc-card wc-k-word',
    "its-a-bomb": 'class="iab-tile iab-tile--up iab-k-explosive',
    "ka-blam": 'class="wc-card wc-k-exploding',
    "read-and-grab": 'class="wc-card wc-k-word',
}


def match_header(page: str) -> str:
    start = page.index('<header class="match-header">')
    return page[start : page.index("</header>", start)]


def test_every_game_is_drawn_on_its_page() -> None:
    assert sorted(DRAWINGS) == sorted(game.slug for game in all_games())


@pytest.mark.parametrize("slug", sorted(DRAWINGS))
def test_every_game_has_a_how_to_play_page_for_players(slug: str) -> None:
    game = get(slug)
    response = Client().get(f"/play/{slug}/how-to-play")
    assert response.status_code == 200
    page = response.content.decode()
    assert f"<h1>How to play {game.name}</h1>".replace("'", "&#x27;") in page
    for heading in ("The goal", "Getting started", "Your turn", "How it ends", "Scoring"):
        assert f"<h2>{heading}</h2>" in page, heading
    assert DRAWINGS[slug] in page, "the page draws the game's own cards or pieces"
    assert f"/static/css/games/{slug}.css" in page, "its drawings are styled by the game's stylesheet"
    # Under the site's policy: no inline script, nothing loaded from elsewhere.
    assert "<script>" not in page and "http://" not in page.replace("http://www.w3.org/2000/svg", "")
    assert "script-src 'self'" in response["Content-Security-Policy"]


def test_a_page_lists_the_games_options_in_words() -> None:
    page = Client().get("/play/ka-blam/how-to-play").content.decode()
    assert "<h2>Options</h2>" in page
    assert "<dt>Game length</dt>" in page and "<li>Short</li>" in page and "Default: Long." in page
    assert "From 10 to 300." in page


def test_the_its_a_bomb_page_lists_every_scenario_by_name_class_and_bot_win_rate() -> None:
    page = Client().get("/play/its-a-bomb/how-to-play").content.decode()
    assert "<h2>Scenarios</h2>" in page
    rows = re.findall(
        r'<th scope="row">([^<]+)</th>\s*<td><span class="iab-level iab-level--(\w+)">\w+</span></td>'
        r"(?:\s*<td>[^<]*</td>){3}\s*<td>(\d+%)</td>",
        page,
    )
    classes = [(name, level) for name, level, _win_rate in rows]
    assert len(classes) == 12
    assert classes[:2] == [("Training", "training"), ("Lab N457", "standard")]
    assert classes[-1] == ("Protocol 27bis", "special")
    assert "lab-n457" not in page, "players read scenario names, never slugs"


def test_an_unknown_game_has_no_how_to_play_page() -> None:
    assert Client().get("/play/no-such-game/how-to-play").status_code == 404


def test_the_lobby_links_every_game_to_its_how_to_play_page() -> None:
    page = Client().get("/play/").content.decode()
    for game in all_games():
        assert f'<a href="/play/{game.slug}/how-to-play">How to play</a>' in page, game.slug


def test_the_game_page_links_to_its_how_to_play_page() -> None:
    page = Client().get("/play/go-fox/").content.decode()
    assert '<a class="button secondary" href="/play/go-fox/how-to-play">How to play</a>' in page


def test_the_match_header_links_to_how_to_play_and_says_the_options_by_their_labels(
    two_player_match: Match, ann: User
) -> None:
    header = match_header(logged_in(ann).get(f"/matches/{two_player_match.pk}/").content.decode())
    assert "· Rounds: 1" in header and "rounds: 1" not in header
    assert '<a href="/play/dont-go-boom/how-to-play">How to play</a>' in header


def test_the_match_header_names_the_scenario_as_the_picker_does(ann: User) -> None:
    match = match_create(
        creator=ann, game_slug="its-a-bomb", options={"scenario": "lab-n457"},
        seats=[SeatRequest("me"), SeatRequest("open")],
    )  # fmt: skip
    client = logged_in(ann)
    header = match_header(client.get(f"/matches/{match.pk}/").content.decode())
    picker = client.get("/play/its-a-bomb/").content.decode()
    words = "2. Lab N457 (standard, a basic bot team wins "
    assert f"· Scenario: {words}" in header and "scenario: lab-n457" not in header
    assert f'<option value="lab-n457">{words}' in picker


def test_whether_a_game_has_a_page_is_looked_up_once_per_game() -> None:
    has_how_to_play.cache_clear()
    Client().get("/play/")
    Client().get("/play/")
    Client().get("/play/its-a-bomb/")
    assert has_how_to_play.cache_info().misses == len(all_games())
