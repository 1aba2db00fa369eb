"""Settings come only from the environment: each case runs in a fresh process."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from boomsite import config
from boomsite.mail import email_settings
from tests.boomsite.settings_process import CONFIG_VARIABLES, ROOT, read_settings, run_settings


def test_embedded_defaults_use_sqlite_embedded_redis_outbox_and_a_generated_key(tmp_path: Path) -> None:
    values = read_settings(tmp_path)
    assert values["DEBUG"] is True
    assert values["DB_ENGINE"] == "django.db.backends.sqlite3"
    assert values["DB_NAME"] == str(tmp_path / "db.sqlite3")
    assert values["REDIS_URL"] == f"unix://{tmp_path}/redis/redis.sock"
    assert values["BROKER"] == f"redis+socket://{tmp_path}/redis/redis.sock?virtual_host=0"
    assert values["EMAIL_BACKEND"] == "boomsite.mail.OutboxBackend"
    assert values["ALLOWED_HOSTS"] == ["127.0.0.1", "localhost"]
    assert values["SITE_URL"] == "http://127.0.0.1:8000"
    key_file = tmp_path / "secret_key"
    assert values["SECRET_KEY"] == key_file.read_text().strip()
    assert len(str(values["SECRET_KEY"])) >= 50
    assert oct(key_file.stat().st_mode & 0o777) == "0o600"


def test_generated_secret_key_is_reused_by_later_processes(tmp_path: Path) -> None:
    assert read_settings(tmp_path)["SECRET_KEY"] == read_settings(tmp_path)["SECRET_KEY"]


def test_every_variable_is_read_from_the_environment(tmp_path: Path) -> None:
    values = read_settings(
        tmp_path,
        SECRET_KEY="k" * 60,
        DEBUG="false",
        ALLOWED_HOSTS="boom.example, www.boom.example",
        CSRF_TRUSTED_ORIGINS="https://boom.example",
        DATABASE_URL="postgres://user:pw@db.internal:5432/boom",
        REDIS_URL="redis://cache.internal:6379/0",
        EMAIL_URL="smtp://mailer:secret@smtp.internal:587?tls=true",
        SITE_URL="https://boom.example/",
    )
    assert values["DEBUG"] is False
    assert values["SECRET_KEY"] == "k" * 60
    assert values["ALLOWED_HOSTS"] == ["boom.example", "www.boom.example"]
    assert values["CSRF_TRUSTED_ORIGINS"] == ["https://boom.example"]
    assert values["DB_ENGINE"] == "django.db.backends.postgresql"
    assert values["DB_NAME"] == "boom"
    assert values["REDIS_URL"] == "redis://cache.internal:6379/0"
    assert values["BROKER"] == "redis://cache.internal:6379/0"
    assert values["CACHE"] == "redis://cache.internal:6379/1"
    assert values["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert values["SITE_URL"] == "https://boom.example"
    assert values["SSL_REDIRECT"] is True
    assert not (tmp_path / "secret_key").exists()


def test_secret_key_is_required_outside_the_embedded_mode(tmp_path: Path) -> None:
    completed = run_settings(tmp_path, DATABASE_URL="postgres://user@db.internal/boom")
    assert completed.returncode != 0
    assert "SECRET_KEY must be set" in completed.stderr


def test_a_debug_value_that_is_not_a_boolean_is_refused(tmp_path: Path) -> None:
    completed = run_settings(tmp_path, DEBUG="perhaps")
    assert completed.returncode != 0
    assert "DEBUG must be true or false" in completed.stderr


def test_check_deploy_gives_no_warnings_with_production_settings(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key not in CONFIG_VARIABLES}
    env.update(
        BOOMSITE_VAR_DIR=str(tmp_path),
        SECRET_KEY="production-" + "x7Gq2-" * 10,
        DEBUG="false",
        ALLOWED_HOSTS="boom.example",
        CSRF_TRUSTED_ORIGINS="https://boom.example",
        DATABASE_URL=f"sqlite:///{tmp_path}/prod.sqlite3",
        REDIS_URL="redis://127.0.0.1:6379/0",
        SITE_URL="https://boom.example",
    )
    completed = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "System check identified no issues (0 silenced)." in completed.stdout


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("", {"EMAIL_BACKEND": "boomsite.mail.OutboxBackend"}),
        (
            "file:///srv/outbox",
            {"EMAIL_BACKEND": "boomsite.mail.OutboxBackend", "EMAIL_OUTBOX_DIR": Path("/srv/outbox")},
        ),
        ("console://", {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}),
        (
            "smtps://a%40b.c:p%2Fw@mail.example",
            {
                "EMAIL_HOST": "mail.example",
                "EMAIL_PORT": 465,
                "EMAIL_USE_SSL": True,
                "EMAIL_HOST_USER": "a@b.c",
                "EMAIL_HOST_PASSWORD": "p/w",
            },
        ),
        (
            "smtp://mail.example:2525?tls=1",
            {"EMAIL_PORT": 2525, "EMAIL_USE_TLS": True, "EMAIL_USE_SSL": False},
        ),
    ],
)
def test_email_url_forms(url: str, expected: dict[str, object]) -> None:
    parsed = email_settings(url, Path("/default/outbox"))
    assert parsed.items() >= expected.items()


def test_an_unknown_email_url_scheme_is_refused() -> None:
    with pytest.raises(ValueError, match="EMAIL_URL scheme"):
        email_settings("pigeon://loft", Path("/x"))


def test_redis_urls_for_other_databases_and_for_celery() -> None:
    assert config.redis_url_with_db("redis://h:6379/0", 1) == "redis://h:6379/1"
    assert config.redis_url_with_db("redis://h:6379", 1) == "redis://h:6379/1"
    assert config.redis_url_with_db("unix:///v/redis.sock", 1) == "unix:///v/redis.sock?db=1"
    assert config.celery_broker_url("unix:///v/redis.sock") == "redis+socket:///v/redis.sock?virtual_host=0"
    assert config.celery_broker_url("redis://h:6379/2") == "redis://h:6379/2"


def test_the_cache_database_and_the_key_prefixes_default_to_the_site_s_own(tmp_path: Path) -> None:
    values = read_settings(tmp_path, REDIS_URL="redis://cache.internal:6379/0")
    assert values["CACHE"] == "redis://cache.internal:6379/1"
    assert values["CACHE_KEY_PREFIX"] == "boomsite" and values["CHANNEL_PREFIX"] == "boomsite"


def test_the_cache_database_and_the_key_prefixes_are_read_from_the_environment(tmp_path: Path) -> None:
    """A second deployment on the same Redis server: its own databases and prefixes."""
    values = read_settings(
        tmp_path,
        REDIS_URL="redis://cache.internal:6379/2",
        CACHE_REDIS_DB="3",
        CACHE_KEY_PREFIX="staging",
        CHANNEL_LAYER_PREFIX="staging-channels",
    )
    assert values["CACHE"] == "redis://cache.internal:6379/3"
    assert values["BROKER"] == "redis://cache.internal:6379/2"
    assert values["CACHE_KEY_PREFIX"] == "staging" and values["CHANNEL_PREFIX"] == "staging-channels"
    embedded = read_settings(tmp_path, CACHE_REDIS_DB="4")
    assert embedded["CACHE"] == f"unix://{tmp_path}/redis/redis.sock?db=4"


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("one", "CACHE_REDIS_DB must be a whole number, not 'one'"),
        ("-1", "CACHE_REDIS_DB must be at least 0"),
    ],
)
def test_a_cache_database_that_is_not_a_database_number_stops_the_start(
    tmp_path: Path, value: str, message: str
) -> None:
    completed = run_settings(tmp_path, CACHE_REDIS_DB=value)
    assert completed.returncode != 0
    assert message in completed.stderr


def test_a_busy_process_s_sockets_all_hear_their_doorbells() -> None:
    """channels-redis keeps the messages waiting for one process's sockets in one Redis
    list and drops any over its capacity. At the default of 100, a Daphne that fell
    behind lost board doorbells and its pages stayed on stale boards (3,816 drops in the
    soak, bench/soak.py). Here 300 matches' doorbells ring before the process reads any."""
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    async def ring_while_busy() -> int:
        layer = get_channel_layer()
        names = [await layer.new_channel() for _ in range(300)]
        for number, name in enumerate(names):
            await layer.group_add(f"capacity-test-{number}", name)
        for number in range(len(names)):
            await layer.group_send(f"capacity-test-{number}", {"type": "match.updated", "ply": number})
        heard = 0
        for number, name in enumerate(names):
            message = await asyncio.wait_for(layer.receive(name), timeout=5)
            heard += message == {"type": "match.updated", "ply": number}
            await layer.group_discard(f"capacity-test-{number}", name)
        return heard

    assert async_to_sync(ring_while_busy)() == 300
