"""axe-core (bundled by ``axe-playwright-python``) run on a page a browser test has open:
the findings a person with a screen reader, a keyboard or low vision would meet.

Tests assert ``serious_findings(page) == []``: no critical or serious finding. Moderate
and minor ones are left to review (axe's own words for them are in its report), except
the rules a test names in ``also``: those are switched on (some are experimental in
axe-core, off by default) and reported whatever their impact."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from axe_playwright_python.sync_playwright import Axe

_AXE = Axe()
SERIOUS = {"serious", "critical"}
# What testers of issue 34 met besides the serious findings: headings that skip a level
# ("moderate" in axe), a button whose visible words are not in its accessible name
# (experimental in axe), and a scroll box the keyboard cannot reach.
ALSO_CHECKED = ("heading-order", "label-content-name-mismatch", "scrollable-region-focusable")


def serious_findings(page: Any, *, within: str | None = None, also: Collection[str] = ()) -> list[str]:
    """Each critical or serious finding on ``page`` (or inside the ``within`` selector),
    and each finding of the rules in ``also``, in words with the first elements it
    names, so a failing assertion says what to fix."""
    options: dict[str, Any] = {"resultTypes": ["violations"]}
    if also:
        options["rules"] = {rule: {"enabled": True} for rule in also}
    results = _AXE.run(page, context=within, options=options)
    return [
        f"{violation['id']} ({violation['impact']}): {violation['help']} at "
        + ", ".join(" ".join(node["target"]) for node in violation["nodes"][:3])
        for violation in results.response["violations"]
        if violation["impact"] in SERIOUS or violation["id"] in also
    ]
