"""The site's VAPID keys (boomsite/config.py): from the environment, or generated once
into var/ in the embedded mode and kept; a public key that is not the private key's, or
a private key that is not one, stops the start."""

from __future__ import annotations

import base64
import stat
from io import StringIO
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management import call_command

from boomsite import config


@pytest.fixture
def var(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("BOOMSITE_VAR_DIR", str(tmp_path))
    monkeypatch.delenv("VAPID_PRIVATE_KEY", raising=False)
    monkeypatch.delenv("VAPID_PUBLIC_KEY", raising=False)
    return tmp_path


def test_the_embedded_mode_makes_its_key_once_and_keeps_it(var: Path) -> None:
    private, public = config.vapid_keys(embedded=True)
    assert config.vapid_keys(embedded=True) == (private, public)  # every process reads the same
    kept = var / "vapid_private_key"
    assert kept.read_text() == private and stat.S_IMODE(kept.stat().st_mode) == 0o600
    point = base64.urlsafe_b64decode(public + "=")
    assert len(point) == 65 and point[0] == 4  # what a browser's applicationServerKey takes
    assert len(base64.urlsafe_b64decode(private + "=")) == 32


def test_keys_from_the_environment(var: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert config.vapid_keys(embedded=False) == ("", "")  # scale-out without a key: push is off
    key = ec.generate_private_key(ec.SECP256R1())
    der = base64.urlsafe_b64encode(
        key.private_bytes(
            serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    ).decode()
    monkeypatch.setenv("VAPID_PRIVATE_KEY", der)  # a DER key, as py-vapid's tools write it, is taken too
    private, public = config.vapid_keys(embedded=False)
    expected = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    assert public == base64.urlsafe_b64encode(expected).rstrip(b"=").decode()
    assert not (var / "vapid_private_key").exists()

    monkeypatch.setenv("VAPID_PUBLIC_KEY", public)
    assert config.vapid_keys(embedded=False) == (private, public)
    monkeypatch.setenv("VAPID_PUBLIC_KEY", config.vapid_public_key(config.new_vapid_private_key()))
    with pytest.raises(ValueError, match="VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY"):
        config.vapid_keys(embedded=False)
    monkeypatch.setenv("VAPID_PRIVATE_KEY", "not a key")
    with pytest.raises(ValueError, match="VAPID_PRIVATE_KEY is not a P-256 private key"):
        config.vapid_keys(embedded=False)


def test_the_subject_is_a_contact(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VAPID_SUBJECT", raising=False)
    assert config.vapid_subject("Boomsite <noreply@boom.example>") == "mailto:noreply@boom.example"
    monkeypatch.setenv("VAPID_SUBJECT", "https://boom.example/contact")
    assert config.vapid_subject("x@y.z") == "https://boom.example/contact"
    monkeypatch.setenv("VAPID_SUBJECT", "boss")
    with pytest.raises(ValueError, match="VAPID_SUBJECT must be a mailto: or https: address"):
        config.vapid_subject("x@y.z")


def test_the_command_prints_a_new_key_pair_for_the_environment() -> None:
    out = StringIO()
    call_command("vapid_keys", stdout=out)
    lines = dict(line.split("=", 1) for line in out.getvalue().split())
    assert set(lines) == {"VAPID_PRIVATE_KEY", "VAPID_PUBLIC_KEY"}
    assert config.vapid_public_key(lines["VAPID_PRIVATE_KEY"]) == lines["VAPID_PUBLIC_KEY"]
