"""Display names: normalised, and never confusable with another account's name or a bot's."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from accounts.names import name_keys

pytestmark = pytest.mark.django_db


@pytest.fixture
def ann() -> User:
    return User.objects.create_user(
        username="ann", email="ann@example.com", password="pw-ann-123456", display_name="Ann"
    )


@pytest.fixture
def bob() -> User:
    return User.objects.create_user(
        username="bob", email="bob@example.com", password="pw-bob-123456", display_name="Bob"
    )


def save_name(user: User, display_name: str, time_zone: str = "UTC") -> tuple[int, str]:
    """Post the settings form as ``user``: the status and the page (or redirect) text."""
    client = Client()
    client.force_login(user)
    response = client.post("/accounts/settings/", {"display_name": display_name, "time_zone": time_zone})
    return response.status_code, response.content.decode()


def assert_refused(user: User, display_name: str, reason: str) -> None:
    before = User.objects.values_list("display_name", "time_zone").get(pk=user.pk)
    status, page = save_name(user, display_name, time_zone="Europe/Paris")
    assert status == 200, f"{display_name!r} was accepted"
    assert reason in page
    # Nothing is saved, not even the time zone sent with the refused name.
    assert User.objects.values_list("display_name", "time_zone").get(pk=user.pk) == before


def test_invisible_and_control_characters_are_removed_and_spaces_collapsed(ann: User) -> None:
    status, _ = save_name(ann, "\u200bAnn\u2060 \u202e the \t\u00a0 Bold\ufeff\u0007")
    assert status == 302
    ann.refresh_from_db()
    assert ann.display_name == "Ann the Bold"


def test_full_width_letters_are_saved_as_plain_letters(ann: User) -> None:
    status, _ = save_name(ann, "\uff21\uff4e\uff4e\uff49\uff45 \u2460")  # full-width "Annie", a circled 1
    assert status == 302
    ann.refresh_from_db()
    assert ann.display_name == "Annie 1"


def test_a_name_of_invisible_characters_only_is_refused(ann: User) -> None:
    assert_refused(ann, "\u200b\u200d\u2060\ufeff", "no visible letters")


def test_a_name_of_punctuation_only_is_refused(ann: User) -> None:
    assert_refused(ann, "...", "at least one letter")


def test_a_bots_name_with_a_zero_width_space_is_refused(ann: User) -> None:
    assert_refused(ann, "Expert\u200bBot", "too much like the name of one of the site")
    assert_refused(ann, "Expert \u200bBot", "kept for the site")


def test_a_bots_name_with_a_greek_omicron_is_refused(ann: User) -> None:
    assert_refused(ann, "Expert B\u03bft", "kept for the site")  # a Greek omicron
    assert_refused(ann, "Expert-B\u03bft", "kept for the site")
    # A Greek capital epsilon and no space.
    assert_refused(ann, "\u0395xpertB\u03bft", "too much like the name of one of the site")


def test_a_bots_name_or_username_without_the_space_is_refused(ann: User) -> None:
    assert_refused(ann, "RandomBot", "too much like the name of one of the site")
    assert_refused(ann, "Bot-Basic", "too much like the name of one of the site")


def test_a_name_ending_in_a_lookalike_of_bot_is_refused(ann: User) -> None:
    assert_refused(ann, "Sneaky \u03920\u0422", "kept for the site")  # Greek B, a zero, Cyrillic T


def test_the_names_bots_get_at_a_table_are_refused(ann: User) -> None:
    # Two Basic bots in one match are "Basic Bot A" and "Basic Bot B" (games/services/matches.py).
    assert_refused(ann, "Basic Bot A", "kept for the site")
    assert_refused(ann, "Sneaky Bot C", "kept for the site")
    assert_refused(ann, "BasicBotB", "too much like the name of one of the site")
    assert_refused(ann, "Basic-B0t-A", "kept for the site")
    status, _ = save_name(ann, "Bot Builder A")
    assert status == 302


def test_another_players_name_in_another_case_is_refused(ann: User, bob: User) -> None:
    assert_refused(ann, "BOB", "too much like another player")
    assert_refused(ann, "bob", "too much like another player")


def test_another_players_name_in_cyrillic_or_full_width_letters_is_refused(ann: User, bob: User) -> None:
    assert_refused(ann, "\u0412\u043eb", "too much like another player")  # Cyrillic B and o
    assert_refused(ann, "\uff22\uff4f\uff42", "too much like another player")  # full-width letters
    assert_refused(ann, "B\u00f3b", "too much like another player")  # an accent
    assert_refused(ann, "B0b", "too much like another player")  # a zero


def test_another_players_username_is_refused_as_a_display_name(ann: User) -> None:
    User.objects.create_user(username="carol_k", email="c@example.com", password="pw", display_name="Caz")
    assert_refused(ann, "Carol K", "too much like another player")


def test_keeping_your_own_name_saves_the_profile(ann: User, bob: User) -> None:
    # Names from before these rules that already look alike are kept as they are.
    User.objects.filter(pk=bob.pk).update(display_name="ANN")
    status, _ = save_name(ann, "Ann", time_zone="Europe/Paris")
    assert status == 302
    ann.refresh_from_db()
    assert (ann.display_name, ann.time_zone) == ("Ann", "Europe/Paris")


def test_your_own_username_in_another_case_is_yours_to_take(ann: User) -> None:
    status, _ = save_name(ann, "ANN")
    assert status == 302
    ann.refresh_from_db()
    assert ann.display_name == "ANN"


def test_a_username_that_looks_like_another_players_name_cannot_be_signed_up(bob: User) -> None:
    password = "correct horse battery 42"
    for username in ["B\u043eb", "ExpertBot"]:  # a Cyrillic o; a bot's name without the space
        response = Client().post(
            "/accounts/signup/",
            {"username": username, "email": "x@example.com", "password1": password, "password2": password},
        )
        assert response.status_code == 200
        assert "too much like" in response.content.decode()
        assert not User.objects.filter(username=username).exists()


@pytest.mark.parametrize(
    ("first", "second", "clash"),
    [
        ("Ian", "ian", True),  # case
        ("Ian", "lan", True),  # a capital I reads as a small l
        ("ian", "lan", False),  # a dotted i does not
        ("Bill", "Bi11", True),  # 1 reads as l, 0 as o
        ("Zo\u00eb", "Zoe", True),  # accents
        ("Ann-Marie", "ann marie", True),  # punctuation and spaces
        ("\u039d\u03af\u03ba\u03bf\u03c2", "\u03bd\u03af\u03ba\u03bf\u03c2", True),  # Greek, by case
        ("Robot", "Bot", False),
    ],
)
def test_which_names_read_alike(first: str, second: str, clash: bool) -> None:
    assert name_keys(first).clash(name_keys(second)) is clash
