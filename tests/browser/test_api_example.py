"""The whole bot docs/api.md shows, run as written against the real site (Daphne, and a
Celery worker for the house bot it plays): the page a programmer has alone must work."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from accounts.models import User
from accounts.services import api_token_create
from games.models import Match
from tests.browser.helpers import off_the_event_loop
from tests.conftest import ensure_bot_accounts

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def the_example() -> str:
    text = (Path(settings.BASE_DIR) / "docs" / "api.md").read_text(encoding="utf-8")
    found = re.search(r"A whole bot, in Python.*?```python\n(.*?)```", text, re.S)
    assert found, "docs/api.md has no whole bot in Python"
    return found.group(1)


def a_programmer() -> str:
    # The house bots, which a transactional test run before this one may have flushed.
    ensure_bot_accounts()
    robo = User.objects.create_user(username="robo", password="pw-robo-1234")
    return api_token_create(user=robo, name="the docs' bot")[1]


def test_the_docs_bot_plays_a_whole_match(live_site: str) -> None:
    token = off_the_event_loop(a_programmer)
    code = the_example().replace('"https://boomsite.example", "bst_..."', f'"{live_site}", "{token}"')
    assert token in code
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=240)
    assert ran.returncode == 0, ran.stderr[-600:]
    match = off_the_event_loop(lambda: Match.objects.get())
    assert match.status == Match.Status.FINISHED and match.game == "go-fox"
    assert "ranks" in ran.stdout
