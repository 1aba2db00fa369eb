"""The Boomsite project package: settings, URLs, the ASGI app, the Celery app, the run command."""

from boomsite.celery import app as celery_app

__all__ = ["celery_app"]
