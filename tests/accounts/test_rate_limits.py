"""Login and sign-up limits count per client, behind the proxies of TRUSTED_PROXIES.

The test client's peer is 127.0.0.1 (``REMOTE_ADDR``); a proxy on the same host adds
the client it saw to ``X-Forwarded-For``.
"""

from __future__ import annotations

import ipaddress
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.test import Client
from pytest_django.fixtures import Settings

from accounts.models import User

pytestmark = pytest.mark.django_db
PASSWORD = "correct horse battery 42"
TOO_MANY = "Too many failed login attempts"


@pytest.fixture
def proxy_on_this_host(settings: Settings) -> None:
    settings.TRUSTED_PROXIES = [ipaddress.ip_network("127.0.0.1")]


@pytest.fixture
def bob() -> User:
    user = User.objects.create_user(username="bob", email="bob@example.com", password=PASSWORD)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


@pytest.fixture
def ann() -> User:
    user = User.objects.create_user(username="ann", email="ann@example.com", password=PASSWORD)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def log_in(login: str, password: str, **headers: Any) -> tuple[Client, str]:
    client = Client()
    response = client.post("/accounts/login/", {"login": login, "password": password}, **headers)
    return client, response.content.decode()


def is_logged_in_as(client: Client, user: User) -> bool:
    return client.session.get("_auth_user_id") == str(user.pk)


def test_failed_logins_on_one_account_do_not_lock_out_another_user_at_the_same_address(
    ann: User, bob: User
) -> None:
    # A shared address without any proxy: an office, a school, a carrier's NAT.
    for _ in range(12):
        _, page = log_in("ann", "wrong")
    assert TOO_MANY in page  # Ann's account is locked...
    client, _ = log_in("bob", PASSWORD)
    assert is_logged_in_as(client, bob)  # ...but not Bob, behind the same address


def test_users_behind_a_trusted_proxy_are_limited_by_their_own_addresses(
    proxy_on_this_host: None, bob: User
) -> None:
    attacker = {"HTTP_X_FORWARDED_FOR": "203.0.113.7"}
    for number in range(10):
        log_in(f"victim{number}", "guess", **attacker)
    # The attacker's own address is now limited, whatever account it tries next...
    client, page = log_in("bob", PASSWORD, **attacker)
    assert TOO_MANY in page
    assert not is_logged_in_as(client, bob)
    # ...while Bob, behind the same proxy, comes from his own address.
    client, _ = log_in("bob", PASSWORD, HTTP_X_FORWARDED_FOR="198.51.100.20")
    assert is_logged_in_as(client, bob)


def test_a_forged_forwarded_for_from_an_untrusted_peer_is_ignored(settings: Settings, bob: User) -> None:
    settings.TRUSTED_PROXIES = [ipaddress.ip_network("10.0.0.0/8")]  # not the test client's 127.0.0.1
    for number in range(10):
        log_in(f"victim{number}", "guess", HTTP_X_FORWARDED_FOR=f"203.0.113.{number}")
    client, page = log_in("bob", PASSWORD, HTTP_X_FORWARDED_FOR="198.51.100.20")
    assert TOO_MANY in page
    assert not is_logged_in_as(client, bob)


def test_an_account_is_locked_when_its_failed_logins_come_from_many_addresses(
    proxy_on_this_host: None, ann: User
) -> None:
    for number in range(5):
        log_in("ann", "wrong", HTTP_X_FORWARDED_FOR=f"203.0.113.{number}")
    # The sixth address, with the right password, finds the account locked.
    client, page = log_in("ann", PASSWORD, HTTP_X_FORWARDED_FOR="198.51.100.99")
    assert TOO_MANY in page
    assert not is_logged_in_as(client, ann)


def sign_up(username: str, **headers: Any) -> int:
    response = Client().post(
        "/accounts/signup/",
        {
            "username": username,
            "email": f"{username}@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
        **headers,
    )
    return response.status_code


def test_signups_from_different_forwarded_addresses_are_limited_separately(proxy_on_this_host: None) -> None:
    busy = {"HTTP_X_FORWARDED_FOR": "203.0.113.7"}
    statuses = [sign_up(f"player{number}", **busy) for number in range(11)]
    assert statuses == [302] * 10 + [429]
    assert sign_up("newcomer", HTTP_X_FORWARDED_FOR="198.51.100.20") == 302
    assert User.objects.filter(username="newcomer").exists()


def test_an_account_is_locked_whatever_port_the_host_header_names(ann: User) -> None:
    # Django accepts any port in Host, and allauth put the host in the account's key.
    for port in range(1, 6):
        log_in("ann", "wrong", HTTP_HOST=f"localhost:{port}")
    client, page = log_in("ann", PASSWORD, HTTP_HOST="localhost:6")
    assert TOO_MANY in page
    assert not is_logged_in_as(client, ann)
