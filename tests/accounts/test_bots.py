from __future__ import annotations

import pytest
from django.contrib.auth import authenticate
from django.db import IntegrityError, transaction
from django.test import Client

from accounts.models import BOT_LEVELS, User

pytestmark = pytest.mark.django_db


def test_one_bot_account_per_level_comes_from_the_migrations() -> None:
    bots = User.objects.filter(is_bot=True).order_by("username")
    assert [(bot.username, bot.bot_level) for bot in bots] == [
        ("bot-basic", "basic"),
        ("bot-expert", "expert"),
        ("bot-random", "random"),
    ]
    assert sorted(bot.bot_level for bot in bots) == sorted(BOT_LEVELS)
    assert all(not bot.has_usable_password() for bot in bots)


def test_a_bot_cannot_log_in_even_with_a_password_set() -> None:
    bot = User.objects.get(username="bot-basic")
    bot.set_password("someone set this 123")
    bot.save()
    assert authenticate(username="bot-basic", password="someone set this 123") is None
    client = Client()
    assert client.login(username="bot-basic", password="someone set this 123") is False
    client.post("/accounts/login/", {"login": "bot-basic", "password": "someone set this 123"})
    assert "_auth_user_id" not in client.session
    response = client.post(
        "/admin/login/?next=/admin/", {"username": "bot-basic", "password": "someone set this 123"}
    )
    assert "_auth_user_id" not in client.session
    assert response.status_code == 200


def test_a_bot_profile_shows_its_level_and_what_it_does(client: Client) -> None:
    page = client.get("/players/bot-expert/").content.decode()
    assert "Expert Bot" in page
    assert "Bot · Expert" in page
    assert "Searches many possible futures" in page


def test_the_database_refuses_a_bot_without_a_level() -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create(username="odd", is_bot=True, bot_level="")
