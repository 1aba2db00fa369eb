"""Post-game review: a player's own decisions in a finished match, each set beside what
the expert bot would have played from the same view (docs/site.md, "Post-game review").

A feature app: the core never imports it. It reads the core's matches, seats and moves,
rebuilds each position with ``games.replays`` and asks ``games.bots.search``; its pages
live under ``/matches/<id>/review`` and link to the core's replay steps by path.
"""
