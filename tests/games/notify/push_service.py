"""A push service for the tests: what Google's, Mozilla's or Apple's is to a browser,
on 127.0.0.1 over HTTPS (its own self-signed certificate, which the site's HTTP client
is told to trust through ``REQUESTS_CA_BUNDLE``), in a thread.

For each push it is sent it checks what a real one checks and the device then does:

- the VAPID ``Authorization`` (RFC 8292): ``vapid t=<JWT>,k=<key>``, the key the site's
  public key (the one browsers subscribe with), the JWT signed with it (ES256), for this
  service's origin (``aud``), expiring within a day, naming the site's contact (``sub``);
- the body: ``Content-Encoding: aes128gcm``, decrypted (RFC 8291) with the device's
  private key and authentication secret, which the test made (``Device``), into the JSON
  the site sent.

Each push it took is kept (``received``), with its ``TTL``, ``Topic`` and ``Urgency``;
anything it refused is kept in ``refused``. A device's path can be told to answer
otherwise: 410 (gone), 500 (failing).
"""

from __future__ import annotations

import base64
import datetime
import json
import os
import ssl
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from ipaddress import IPv4Address
from pathlib import Path
from typing import Any

import http_ece
from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.x509.oid import NameOID
from django.conf import settings


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Device:
    """A browser's side of a subscription: its key pair and secret, made by the test."""

    name: str
    endpoint: str
    private_key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth_secret: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def p256dh(self) -> str:
        point = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return b64url(point)

    def subscription(self) -> dict[str, Any]:
        """What the browser's ``PushSubscription.toJSON()`` gives the page's script."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": b64url(self.auth_secret)}}


@dataclass(frozen=True)
class Push:
    device: str
    message: dict[str, Any]
    ttl: int
    topic: str
    urgency: str
    claims: dict[str, Any]


class PushService:
    def __init__(self, folder: Path) -> None:
        self.devices: dict[str, Device] = {}
        self.answers: dict[str, int] = {}  # a device's name -> the status it answers instead of 201
        self.received: list[Push] = []
        self.refused: list[str] = []
        self.lock = threading.Lock()
        self.certificate = folder / "push-service.pem"
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self.origin = f"https://127.0.0.1:{self._server.server_address[1]}"
        key = ec.generate_private_key(ec.SECP256R1())
        _write_certificate(key, self.certificate, folder / "push-service.key")
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(self.certificate, folder / "push-service.key")
        self._server.socket = context.wrap_socket(self._server.socket, server_side=True)
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)

    def __enter__(self) -> PushService:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def device(self, name: str) -> Device:
        device = Device(name=name, endpoint=f"{self.origin}/push/{name}")
        self.devices[name] = device
        return device

    def pushes(self, device: str | None = None) -> list[Push]:
        with self.lock:
            return [push for push in self.received if device is None or push.device == device]

    def take(self, path: str, headers: Any, body: bytes) -> int:
        """A push arrived at ``path``: checked, decrypted and kept; the status to answer."""
        name = path.removeprefix("/push/")
        device = self.devices.get(name)
        if device is None:
            return self._refuse(f"{path}: no such subscription", 404)
        try:
            claims = self._check_vapid(headers.get("Authorization", ""))
        except (AssertionError, InvalidSignature, ValueError, KeyError) as error:
            return self._refuse(f"{path}: bad VAPID authorization: {error!r}", 401)
        if headers.get("Content-Encoding") != "aes128gcm":
            return self._refuse(f"{path}: Content-Encoding {headers.get('Content-Encoding')!r}", 400)
        status = self.answers.get(name, 201)
        if status >= 300:
            return status
        plain = http_ece.decrypt(
            body, private_key=device.private_key, auth_secret=device.auth_secret, version="aes128gcm"
        )
        push = Push(
            device=name,
            message=json.loads(plain),
            ttl=int(headers["TTL"]),
            topic=headers.get("Topic", ""),
            urgency=headers.get("Urgency", ""),
            claims=claims,
        )
        with self.lock:
            self.received.append(push)
        return 201

    def _refuse(self, why: str, status: int) -> int:
        with self.lock:
            self.refused.append(why)
        return status

    def _check_vapid(self, authorization: str) -> dict[str, Any]:
        scheme, _, rest = authorization.partition(" ")
        assert scheme == "vapid", f"scheme {scheme!r}"
        parts = dict(part.split("=", 1) for part in rest.split(","))
        assert parts["k"] == settings.VAPID_PUBLIC_KEY, "signed with another key than the site's public key"
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64url_decode(parts["k"]))
        header, payload, signature = parts["t"].split(".")
        assert json.loads(b64url_decode(header)) == {"typ": "JWT", "alg": "ES256"}
        raw = b64url_decode(signature)
        assert len(raw) == 64, "an ES256 signature is r and s, 32 bytes each"
        der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        public.verify(der, f"{header}.{payload}".encode(), ec.ECDSA(hashes.SHA256()))
        claims: dict[str, Any] = json.loads(b64url_decode(payload))
        assert claims["aud"] == self.origin, f"audience {claims['aud']!r}"
        assert claims["sub"] == settings.VAPID_SUBJECT, f"subject {claims['sub']!r}"
        assert time.time() < claims["exp"] <= time.time() + 24 * 3600, "expiry not within a day"
        return claims


def _handler(service: PushService) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            status = service.take(self.path, self.headers, body)
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


def _write_certificate(key: ec.EllipticCurvePrivateKey, certificate: Path, key_file: Path) -> None:
    """A self-signed certificate for 127.0.0.1, valid whatever time a test travels to."""
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "test push service")])
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC))
        .not_valid_after(datetime.datetime(2099, 1, 1, tzinfo=datetime.UTC))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(IPv4Address("127.0.0.1"))]), critical=False
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    certificate.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
