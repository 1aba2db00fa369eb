"""Reading the environment: the only source of configuration (see the README's table).

Kept apart from settings.py so that the run command, the Celery app and tests can
read the same facts (where var/ is, which Redis, embedded or not) without
configuring Django.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import os
import secrets
from email.utils import parseaddr
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

BASE_DIR = Path(__file__).resolve().parent.parent


def var_dir() -> Path:
    """Where the embedded mode keeps its data: database, Redis, mail, secret key."""
    return Path(os.environ.get("BOOMSITE_VAR_DIR") or BASE_DIR / "var").resolve()


def is_embedded() -> bool:
    """Embedded mode: no DATABASE_URL, so SQLite under var/ and a generated secret key."""
    return not os.environ.get("DATABASE_URL")


def uses_embedded_redis() -> bool:
    return not os.environ.get("REDIS_URL")


def embedded_redis_socket() -> Path:
    return var_dir() / "redis" / "redis.sock"


def redis_url() -> str:
    return os.environ.get("REDIS_URL") or f"unix://{embedded_redis_socket()}"


def redis_db(url: str) -> int:
    """The database number a Redis URL names (``redis://h:p/N``, ``unix://path?db=N``; 0 if none)."""
    parts = urlsplit(url)
    if parts.scheme == "unix":
        return int(dict(parse_qsl(parts.query)).get("db", "0"))
    return int(parts.path.strip("/") or "0")


def redis_url_with_db(url: str, db: int) -> str:
    """The same server, another database number (``redis://h:p/N`` or ``unix://path?db=N``)."""
    parts = urlsplit(url)
    if parts.scheme == "unix":
        query = dict(parse_qsl(parts.query))
        query["db"] = str(db)
        # urlunsplit drops the empty host ("unix:/path"), which redis-py cannot read.
        return f"unix://{parts.path}?{urlencode(query)}"
    return urlunsplit(parts._replace(path=f"/{db}"))


def celery_broker_url(url: str) -> str:
    """Kombu names a Redis unix socket ``redis+socket://``; TCP URLs pass as they are."""
    parts = urlsplit(url)
    if parts.scheme == "unix":
        db = dict(parse_qsl(parts.query)).get("db", "0")
        return f"redis+socket://{parts.path}?virtual_host={db}"
    return url


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ValueError(f"{name} must be true or false, not {raw!r}")


def env_int(name: str, default: int, *, minimum: int = 0) -> int:
    """A whole number from the environment; anything else stops the process at start."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw.strip())
    except ValueError:
        raise ValueError(f"{name} must be a whole number, not {raw!r}") from None
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, not {raw!r}")
    return value


def env_str(name: str, default: str) -> str:
    """A text setting; unset or blank means the default."""
    raw = os.environ.get(name, "").strip()
    return raw or default


def env_list(name: str, default: str) -> list[str]:
    raw = os.environ.get(name)
    return [item.strip() for item in (default if raw is None else raw).split(",") if item.strip()]


def env_networks(name: str, default: str = "") -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """Comma-separated IP addresses (each a network of one) or CIDR networks; empty by default.
    Set but empty means none, whatever the default."""
    networks = []
    for item in env_list(name, default):
        try:
            networks.append(ipaddress.ip_network(item))
        except ValueError as error:
            raise ValueError(f"{name}: {item!r} is not an IP address or CIDR network ({error})") from None
    return networks


def embedded_secret_key() -> str:
    """Generated once into var/secret_key (readable by the owner only) and reused."""
    path = var_dir() / "secret_key"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass  # another process (worker, beat) wrote it first: read theirs
        else:
            with os.fdopen(fd, "w") as handle:
                handle.write(secrets.token_urlsafe(50))
    return path.read_text().strip()


# -- Web Push (games/notify/push.py) -------------------------------------------------
# VAPID (RFC 8292): the site signs each push with its own P-256 key, and the browser
# only accepts pushes signed by the key it subscribed with. So the key must be the same
# for every process and must not change (a new key orphans every subscription).


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def _b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def new_vapid_private_key() -> str:
    """A fresh VAPID private key: the P-256 secret number, 32 bytes, base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    return _b64url(key.private_numbers().private_value.to_bytes(32, "big"))


def vapid_public_key(private_key: str) -> str:
    """The public key of a VAPID private key (32 raw bytes, or a DER key, base64url):
    the uncompressed point, base64url, as browsers take it (``applicationServerKey``).
    Raises ``ValueError`` for anything that is not such a key."""
    try:
        raw = _b64url_decode(private_key.strip())
        if len(raw) == 32:
            key = ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())
        else:
            loaded = serialization.load_der_private_key(raw, password=None)
            if not isinstance(loaded, ec.EllipticCurvePrivateKey) or loaded.curve.name != "secp256r1":
                raise ValueError("not a P-256 key")
            key = loaded
    except (ValueError, TypeError, binascii.Error) as error:
        raise ValueError(f"VAPID_PRIVATE_KEY is not a P-256 private key ({error})") from None
    point = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return _b64url(point)


def embedded_vapid_private_key() -> str:
    """Generated once into var/vapid_private_key (readable by the owner only) and reused,
    as the secret key is."""
    path = var_dir() / "vapid_private_key"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass  # another process (worker, beat) wrote it first: read theirs
        else:
            with os.fdopen(fd, "w") as handle:
                handle.write(new_vapid_private_key())
    return path.read_text().strip()


def vapid_keys(*, embedded: bool) -> tuple[str, str]:
    """(private, public) VAPID keys, base64url. ``VAPID_PRIVATE_KEY`` from the environment;
    unset, the embedded mode's key from var/, and elsewhere none: ("", ""), push is off.
    ``VAPID_PUBLIC_KEY``, when set, must be the private key's: a mismatch stops the start
    (browsers would subscribe with a key the site does not sign with)."""
    private = os.environ.get("VAPID_PRIVATE_KEY", "").strip()
    if not private:
        if not embedded:
            return "", ""
        private = embedded_vapid_private_key()
    public = vapid_public_key(private)
    given = os.environ.get("VAPID_PUBLIC_KEY", "").strip().rstrip("=")
    if given and given != public:
        raise ValueError("VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY")
    return private, public


def vapid_subject(from_email: str) -> str:
    """Who runs the site, for push services (the JWT's ``sub``): ``VAPID_SUBJECT``, a
    ``mailto:`` or ``https:`` address; by default ``mailto:`` the site's sender address."""
    subject = env_str("VAPID_SUBJECT", f"mailto:{parseaddr(from_email)[1]}")
    if not (subject.startswith("mailto:") and "@" in subject) and not subject.startswith("https://"):
        raise ValueError(f"VAPID_SUBJECT must be a mailto: or https: address, not {subject!r}")
    return subject
