"""The deploy tests drive Debian's chromium too: the browser tests' fixture."""

from tests.browser.conftest import browser

__all__ = ["browser"]
