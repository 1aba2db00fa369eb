"""Reading the site's settings in a fresh process, from an environment of a test's own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONFIG_VARIABLES = (
    "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "DATABASE_URL", "REDIS_URL",
    "EMAIL_URL", "SITE_URL", "HTTPS_ONLY", "BOOMSITE_VAR_DIR",
    "CACHE_REDIS_DB", "CACHE_KEY_PREFIX", "CHANNEL_LAYER_PREFIX",
)  # fmt: skip

READ_SETTINGS = """
import json, django
from django.conf import settings
django.setup()
print(json.dumps({
    "DEBUG": settings.DEBUG, "SECRET_KEY": settings.SECRET_KEY, "ALLOWED_HOSTS": settings.ALLOWED_HOSTS,
    "CSRF_TRUSTED_ORIGINS": settings.CSRF_TRUSTED_ORIGINS, "SITE_URL": settings.SITE_URL,
    "DB_ENGINE": settings.DATABASES["default"]["ENGINE"], "DB_NAME": str(settings.DATABASES["default"]["NAME"]),
    "REDIS_URL": settings.REDIS_URL, "BROKER": settings.CELERY_BROKER_URL,
    "CACHE": settings.CACHES["default"]["LOCATION"], "EMAIL_BACKEND": settings.EMAIL_BACKEND,
    "SSL_REDIRECT": settings.SECURE_SSL_REDIRECT,
    "CACHE_KEY_PREFIX": settings.CACHES["default"]["KEY_PREFIX"],
    "CHANNEL_PREFIX": settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"],
}))
"""


def run_settings(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {key: value for key, value in os.environ.items() if key not in CONFIG_VARIABLES}
    clean.update({"BOOMSITE_VAR_DIR": str(tmp_path), "DJANGO_SETTINGS_MODULE": "boomsite.settings", **env})
    return subprocess.run(
        [sys.executable, "-c", READ_SETTINGS], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60
    )


def read_settings(tmp_path: Path, **env: str) -> dict[str, object]:
    completed = run_settings(tmp_path, **env)
    assert completed.returncode == 0, completed.stderr
    result: dict[str, object] = json.loads(completed.stdout)
    return result
