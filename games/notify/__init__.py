"""Email notifications for async play: nudges, alarms, invitations, game over, daily
digests and one-click unsubscribe (docs/site.md, "Notifications").

A feature package: it reads the core (models, clocks, presence, the engine's logs)
and is told when a match finishes through ``settings.MATCH_FINISHED_TASKS``; the core
never imports it.
"""
