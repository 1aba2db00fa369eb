"""Who keeps away from whom, without the core importing the feature that records it.

A person may block another (``games/social``: docs/site.md, "Friends, challenges and
blocks"). The core honours a block in three places: nobody is invited to a match by
someone they blocked or who blocked them (``services.matches.match_create_seated``,
which every invitation, challenge and rematch goes through), nobody joins the match
of someone they blocked or who blocked them (``match_join``), and a chat line is not
shown to someone its author blocked or was blocked by (the match page,
``views.match_page``, and the match socket, ``live.consumers``).

The feature lists its function in ``settings.BLOCKS`` by dotted path, as the links and
the match notes are listed (``games/feature_links.py``): ``function(user_id)``
returning the set of user ids that person blocked or was blocked by, both ways in
one set. With the setting empty nobody is blocked.
"""

from __future__ import annotations

from games.feature_links import hook_functions


def blocked_with(user_id: int) -> set[int]:
    """The people ``user_id`` blocked or was blocked by: each listed function's, together."""
    found: set[int] = set()
    for people in hook_functions("BLOCKS"):
        found |= people(user_id)
    return found
