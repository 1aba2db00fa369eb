"""The Celery app. Workers and beat run as ``celery -A boomsite worker`` / ``beat``."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "boomsite.settings")

app = Celery("boomsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
