"""The Celery app. Workers and beat run as ``celery -A boomsite worker`` / ``beat``."""

from __future__ import annotations

import os

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "boomsite.settings")

app = Celery("boomsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# The site's code sends tasks through ``celery.current_app`` and never imports this
# composition root. Celery's current app is per thread: in any thread but this one
# (a socket's worker thread, where after-commit work runs) it is the default app, and
# without one Celery would make an unconfigured app on its own. Celery's Django fixup
# happens to set the default too, but only if none was set before: said here, at once.
app.set_default()


@signals.worker_init.connect
def count_task_outcomes(**_: object) -> None:
    """In a worker (and, by the fork, in its pool's children): count each task's outcome
    for /metrics. Imported here and not above: every process imports this module
    (boomsite/__init__.py), the run command's supervisor too, before it has made and
    emptied its children's PROMETHEUS_MULTIPROC_DIR (boomsite/run.py)."""
    from boomsite.metrics import count_celery_tasks

    count_celery_tasks()
