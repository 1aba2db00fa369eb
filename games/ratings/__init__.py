"""Ratings: one OpenSkill rating per player per game, moved by each finished rated
match, and the leaderboards (docs/site.md, "Ratings"). A feature package: the core
never imports it; it hears of finished matches through the match-finished
announcement (``settings.MATCH_FINISHED_TASKS``)."""
