"""Adding a game: its engine package, one registry line, a presenter and a template.

The toy eighth game (``tests/engine/toy_game.py``) joins the site for the length of a
test with exactly those four things: nothing else is edited, no migration is made,
and the lobby, the match page, the services and the bots take it as they take the
seven real games.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from accounts.models import User
from games.boards import NoPresenter, build_board
from games.engine import registry
from games.models import Match, Move
from games.services import (
    MatchError,
    SeatRequest,
    bot_play_turn,
    match_create,
    match_join,
    match_resign,
    match_submit_action,
)
from games.templatetags.boards import game_stylesheet
from tests.engine.toy_game import ToyHighCard
from tests.games import toy_board
from tests.games.helpers import action_buttons, first_action_id, logged_in

pytestmark = pytest.mark.django_db

TEMPLATES = Path(__file__).resolve().parent / "templates" / "jinja2"


@pytest.fixture
def toy_game(monkeypatch: pytest.MonkeyPatch, settings: Any) -> ToyHighCard:
    game = ToyHighCard()
    # 1. the engine package is tests/engine/toy_game.py; 2. the registry line:
    monkeypatch.setattr(registry, "_GAMES", (*registry._GAMES, game))
    monkeypatch.setattr(registry, "_BY_SLUG", {**registry._BY_SLUG, game.slug: game})
    # 3. the presenter, as games/boards/toy_high_card.py:
    monkeypatch.setitem(sys.modules, f"games.boards.{game.module_name}", toy_board)
    # 4. the template, as templates/jinja2/games/toy-high-card/board.html (the boards' Jinja2 backend):
    django_templates, jinja2_templates = settings.TEMPLATES
    settings.TEMPLATES = [
        django_templates,
        {**jinja2_templates, "DIRS": [*jinja2_templates["DIRS"], TEMPLATES]},
    ]
    return game


def test_the_new_game_needs_no_migration(toy_game: ToyHighCard) -> None:
    # makemigrations --check exits with status 1 when the models and migrations differ.
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


def test_the_lobby_offers_the_new_game_with_its_options(toy_game: ToyHighCard, ann: User) -> None:
    client = logged_in(ann)
    assert "Toy High Card" in client.get("/play/").content.decode()
    page = client.get("/play/toy-high-card/").content.decode()
    assert 'name="option_hand_size"' in page and 'name="option_can_draw"' in page
    # The presenter's choice_label hook speaks for one choice; the others keep their name.
    assert re.search(r'<option value="low"[^>]*>Lowest total wins</option>', page)
    assert re.search(r'<option value="high"[^>]*>High</option>', page)
    # Without a bot module of its own, the game is offered the random bot only.
    assert 'value="bot-random"' in page and 'value="bot-basic"' not in page
    refused = client.post(
        "/play/toy-high-card/", {"seat_0": "me", "seat_1": "bot-basic", "option_hand_size": "1"}
    )
    assert refused.status_code == 400 and not Match.objects.exists()
    with pytest.raises(MatchError, match="no 'basic' bot for Toy High Card"):
        match_create(
            creator=ann, game_slug=toy_game.slug, options={},
            seats=[SeatRequest("me"), SeatRequest("bot", level="basic")],
        )  # fmt: skip


def test_people_and_a_bot_play_the_new_game_to_its_end(toy_game: ToyHighCard, ann: User, bob: User) -> None:
    response = logged_in(ann).post(
        "/play/toy-high-card/",
        {"seat_0": "me", "seat_1": "invite", "seat_1_username": "bob", "seat_2": "bot-random",
         "option_hand_size": "2", "option_scoring": "high", "visibility": "public"},
    )  # fmt: skip
    match = Match.objects.get()
    assert response.status_code == 302 and match.game == "toy-high-card"
    match_join(match_id=match.pk, user=bob)
    clients = {0: logged_in(ann), 1: logged_in(bob)}
    for _ in range(60):
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            break
        seat = toy_game.to_act(match.decoded_state())[0]
        if seat == 2:  # the bot's turn, as its Celery task would play it
            assert bot_play_turn(match_id=match.pk, ply=match.ply)
            continue
        page = clients[seat].get(f"/matches/{match.pk}/").content.decode()
        assert "toy-seat" in page, "the match page draws the game's own template"
        first = action_buttons(page)[0]
        action_id = first_action_id(page)
        posted = clients[seat].post(
            f"/matches/{match.pk}/act",
            {"action": json.dumps(first), "ply": match.ply, "action_id": action_id},
        )
        assert posted.status_code == 302
    assert match.status == Match.Status.FINISHED, "the match should end within 60 turns"
    assert match.result is not None
    assert sorted(match.result["ranks"]) in ([1, 2, 3], [1, 1, 3], [1, 2, 2], [1, 1, 1])
    assert Move.objects.filter(match=match).count() == match.ply
    assert "score" in logged_in(ann).get(f"/matches/{match.pk}/").content.decode()


def test_a_game_without_a_presenter_fails_clearly(monkeypatch: pytest.MonkeyPatch) -> None:
    game = ToyHighCard()
    monkeypatch.setattr(registry, "_BY_SLUG", {**registry._BY_SLUG, game.slug: game})
    with pytest.raises(NoPresenter, match=r"Toy High Card.*games\.boards\.toy_high_card does not exist"):
        build_board(game, game.new(2, 1), 0, ["Ann", "Bob"], 0)


def test_a_stylesheet_is_linked_when_the_game_has_one(toy_game: ToyHighCard) -> None:
    assert "css/games/go-fox.css" in game_stylesheet("go-fox")
    assert game_stylesheet("toy-high-card") == ""


def test_the_autopilot_plays_a_resigned_seat_with_the_bot_the_game_has(
    toy_game: ToyHighCard, ann: User, bob: User
) -> None:
    match = match_create(
        creator=ann, game_slug=toy_game.slug, options={},
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob"), SeatRequest("bot", level="random")],
    )  # fmt: skip
    match_join(match_id=match.pk, user=bob)
    match_resign(match_id=match.pk, user=bob)
    for _ in range(60):
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            break
        state = match.decoded_state()
        seat = toy_game.to_act(state)[0]
        if seat == 0:
            action = toy_game.legal_actions(state, 0)[0]
            match_submit_action(match_id=match.pk, user=ann, action=action, ply=match.ply)
        else:  # Bob's resigned seat (the autopilot: the random bot here) and the bot's
            assert bot_play_turn(match_id=match.pk, ply=match.ply)
    assert match.status == Match.Status.FINISHED
    assert Move.objects.filter(match=match, seat=1, user=None).exists(), "the autopilot played Bob's seat"
    assert match.result is not None and match.result["ranks"][1] == 3, "a resigned player ranks last"


def test_a_game_without_a_how_to_play_page_shows_no_link_and_its_url_is_not_found(
    toy_game: ToyHighCard, ann: User
) -> None:
    client = logged_in(ann)
    lobby = client.get("/play/").content.decode()
    assert "Toy High Card" in lobby and "/play/toy-high-card/how-to-play" not in lobby
    game_page = client.get("/play/toy-high-card/")
    assert game_page.status_code == 200 and "How to play" not in game_page.content.decode()
    match = match_create(
        creator=ann, game_slug=toy_game.slug, options={"scoring": "low"},
        seats=[SeatRequest("me"), SeatRequest("open")],
    )  # fmt: skip
    match_page = client.get(f"/matches/{match.pk}/")
    assert match_page.status_code == 200
    assert "Scoring: Lowest total wins" in match_page.content.decode(), "the header words the options"
    assert "How to play" not in match_page.content.decode()
    assert client.get("/play/toy-high-card/how-to-play").status_code == 404
