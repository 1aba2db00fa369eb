"""Tournaments: set up in the admin, run by Celery, followed live (docs/tournaments.md).

A nested Django app (label ``tournaments``) beside the core: the core never imports it.
It hears about finished matches through the match-finished announcement and seats its
tables through the core's ``match_create_seated``. The pairing and table building is
pure, in ``formats/``."""
