"""Helpers for tests that open the programs' streams in process (the real ASGI stack,
the real Redis channel layer): a stream, its status and headers, its lines."""

from __future__ import annotations

import json
from typing import Any

from channels.testing import ApplicationCommunicator

from boomsite.asgi import application


class Stream:
    """One HTTP request to a stream, read as a program reads it: line by line."""

    def __init__(self, path: str, token: str | None, *, method: str = "GET") -> None:
        headers = [(b"host", b"testserver")]
        if token is not None:
            headers.append((b"authorization", f"Bearer {token}".encode()))
        path, _, query = path.partition("?")
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": query.encode(),
            "root_path": "",
            "headers": headers,
            "client": ("127.0.0.1", 50000),
            "server": ("testserver", 80),
        }
        self.app = ApplicationCommunicator(application, scope)
        self.status = 0
        self.headers: dict[str, str] = {}
        self.pending = b""
        self.finished = False

    async def open(self, timeout: float = 5) -> int:
        """Send the request; the response's status (its headers in ``headers``)."""
        await self.app.send_input({"type": "http.request", "body": b"", "more_body": False})
        start = await self.app.receive_output(timeout)
        assert start["type"] == "http.response.start"
        self.status = start["status"]
        self.headers = {name.decode().lower(): value.decode() for name, value in start["headers"]}
        return self.status

    async def body(self, timeout: float = 5) -> bytes:
        """The whole body of a response that ends (a refusal)."""
        data = b""
        while not self.finished:
            data += await self._chunk(timeout)
        return data

    async def raw_line(self, timeout: float = 5) -> bytes | None:
        """The next line as sent (an empty one is a keep-alive); None once the stream ended."""
        while b"\n" not in self.pending:
            if self.finished:
                return None
            self.pending += await self._chunk(timeout)
        line, _, self.pending = self.pending.partition(b"\n")
        return line

    async def line(self, timeout: float = 5) -> dict[str, Any] | None:
        """The next JSON line, keep-alives skipped; None once the stream ended."""
        while True:
            raw = await self.raw_line(timeout)
            if raw is None:
                return None
            if raw:
                data: dict[str, Any] = json.loads(raw)
                return data

    async def next_of(self, kind: str, timeout: float = 5) -> dict[str, Any]:
        """The next line of type ``kind`` (others skipped)."""
        while True:
            line = await self.line(timeout)
            assert line is not None, f"the stream ended before a {kind!r} line"
            if line["type"] == kind:
                return line

    async def lines_until_quiet(self, quiet: float = 0.5) -> list[dict[str, Any]]:
        """Every JSON line that comes until nothing has for ``quiet`` seconds (the stream
        stays open: a receive that times out would cancel it)."""
        while not self.finished and not await self.app.receive_nothing(quiet):
            self.pending += await self._chunk(1)
        assert self.pending.endswith(b"\n") or not self.pending, "the server sends whole lines"
        lines = [json.loads(raw) for raw in self.pending.split(b"\n") if raw]
        self.pending = b""
        return lines

    async def close(self) -> None:
        """The client goes away (a stream left open would outlive the test)."""
        if not self.finished:
            await self.app.send_input({"type": "http.disconnect"})
        await self.app.wait(timeout=5)

    async def _chunk(self, timeout: float) -> bytes:
        message = await self.app.receive_output(timeout)
        assert message["type"] == "http.response.body", message
        if not message.get("more_body", False):
            self.finished = True
        chunk: bytes = message.get("body", b"")
        return chunk
