"""``manage.py vapid_keys``: a new VAPID key pair for Web Push, as environment lines.

Run once when setting a site up (README: Configuration) and keep the private key with
the secret key: a new key orphans every device that turned notifications on (their
browsers only take pushes signed with the key they subscribed with).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from boomsite import config


class Command(BaseCommand):
    help = "Print a new VAPID key pair (VAPID_PRIVATE_KEY, VAPID_PUBLIC_KEY) for the environment."

    def handle(self, *args: Any, **options: Any) -> None:
        private = config.new_vapid_private_key()
        self.stdout.write(f"VAPID_PRIVATE_KEY={private}\nVAPID_PUBLIC_KEY={config.vapid_public_key(private)}")
