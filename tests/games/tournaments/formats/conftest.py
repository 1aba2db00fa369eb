"""The formats are pure (no Django): their tests need no site set-up, so the site's
autouse ``site_defaults`` (settings, cache, socket registry) is replaced by nothing here."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def site_defaults() -> None:
    """Nothing to set up: the formats read no settings, cache or database."""
