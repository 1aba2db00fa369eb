"""axe-core (bundled by ``axe-playwright-python``) run on a page a browser test has open:
the findings a person with a screen reader, a keyboard or low vision would meet.

Tests assert ``serious_findings(page) == []``: no critical or serious finding. Moderate
and minor ones are left to review (axe's own words for them are in its report)."""

from __future__ import annotations

from typing import Any

from axe_playwright_python.sync_playwright import Axe

_AXE = Axe()
SERIOUS = {"serious", "critical"}


def serious_findings(page: Any, *, within: str | None = None) -> list[str]:
    """Each critical or serious finding on ``page`` (or inside the ``within`` selector),
    in words with the first elements it names, so a failing assertion says what to fix."""
    results = _AXE.run(page, context=within) if within else _AXE.run(page)
    return [
        f"{violation['id']} ({violation['impact']}): {violation['help']} at "
        + ", ".join(" ".join(node["target"]) for node in violation["nodes"][:3])
        for violation in results.response["violations"]
        if violation["impact"] in SERIOUS
    ]
