"""What the browser tests share: logging a browser in, and playing one turn by clicking."""

from __future__ import annotations

import random
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from django.db import connection
from django.test import Client

from accounts.models import User

T = TypeVar("T")

# What the page says about the viewer: over, their turn (an enabled action button), or waiting.
PAGE_STATE = """() => {
  const live = document.getElementById('match-live');
  if (!live) return null;
  if (live.dataset.status === 'finished') return 'over';
  const buttons = [...live.querySelectorAll('button[data-action]')].filter(b => !b.disabled && b.offsetParent !== null);
  return buttons.length ? 'turn' : null;
}"""


def live_ply(page: Any) -> int:
    return int(page.get_attribute("#match-live", "data-ply"))


def log_in(context: Any, base_url: str, user: User) -> None:
    client = Client()
    client.force_login(user)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base_url}])


def take_a_turn(page: Any, rng: random.Random) -> None:
    """Click one of the enabled action buttons and wait for the pushed board that follows."""
    page.wait_for_timeout(60)  # a person's pace, not a script's: the socket limits floods
    ply = live_ply(page)
    buttons = page.locator("#match-live button[data-action]:enabled:visible")
    buttons.nth(rng.randrange(buttons.count())).click()
    try:
        page.wait_for_function(
            f"() => parseInt(document.getElementById('match-live').dataset.ply, 10) > {ply}", timeout=30_000
        )
    except Exception:
        error = page.locator("#match-error")
        raise AssertionError(
            f"no new board after a click: {error.inner_text() if error.count() else 'no error shown'}"
        ) from None
    # The keyboard's focus is on the new board's prompt, not back at the page's top (issue 34,
    # bug 6). Waited for: a bot's reply pushed in the same instant draws the board again,
    # and the focus moves on to its prompt (CI once read it between the two).
    try:
        page.wait_for_function("() => document.activeElement.id === 'board-prompt'", timeout=5_000)
    except Exception:
        focused = page.evaluate("() => document.activeElement.outerHTML.slice(0, 120)")
        raise AssertionError(f"the focus is not on the new board's prompt but on {focused}") from None


def turns_seen_live(pages: dict[str, Any], rng: random.Random, *, tries: int) -> int:
    """Two people's pages take turns (``tries`` rounds at most, each one move by whoever
    may move): after each move, the other's board moves on by itself. How many moves
    the other page saw so."""
    seen_by_other = 0
    for _ in range(tries):
        for name, page in pages.items():
            other = next(page for other_name, page in pages.items() if other_name != name)
            if page.evaluate(PAGE_STATE) != "turn":
                continue
            before = live_ply(other)
            take_a_turn(page, rng)
            other.wait_for_function(
                f"() => parseInt(document.getElementById('match-live').dataset.ply, 10) > {before}",
                timeout=15_000,
            )
            seen_by_other += 1
            break
    return seen_by_other


def off_the_event_loop(work: Callable[[], T]) -> T:
    """Run ``work`` in a thread of its own. After a commit the services ring the match's
    doorbell with async_to_sync, which refuses to run in this thread, where Playwright's
    event loop runs: the pages would never hear of the change."""

    def run() -> T:
        try:
            return work()
        finally:
            connection.close()  # the thread's own database connection

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run).result()
