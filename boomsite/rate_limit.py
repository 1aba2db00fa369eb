"""Request limits shared by every process of the site: fixed windows counted in the
cache (Redis), so that N Daphne processes still allow each caller one budget.

If the cache does not answer, the request is allowed and the failure logged: a
limit protects the site, it must not take it down with Redis.

A verdict says what the counter says, and ``headers`` spells it as the IETF's
RateLimit header fields (draft-ietf-httpapi-ratelimit-headers): the limit of the
window, what is left of it, and the seconds until it resets. The API's views record
their verdict on the request (``remember``) and ``RateLimitHeadersMiddleware`` writes
it on the answer, whatever the answer is: a success, a refusal, the 429 itself, or an
error made around the view (``boomsite/api_errors.py``).
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Verdict:
    allowed: bool
    retry_after: int  # whole seconds until the window ends (0 when allowed)
    limit: int = 0  # requests allowed in a window
    remaining: int = 0  # of them, still allowed in this window after this request
    reset: int = 0  # whole seconds until this window ends and the count starts again
    window_seconds: int = 0


def _window(now: float, window_seconds: int) -> tuple[int, int]:
    """The window ``now`` falls in, and the whole seconds until it ends (at least 1:
    a client told 0 would ask again in the same window)."""
    window = int(now // window_seconds)
    return window, max(1, math.ceil((window + 1) * window_seconds - now))


def take(key: str, *, limit: int, window_seconds: int) -> Verdict:
    """Count one request of ``key``; refused once ``limit`` were counted this window."""
    now = time.time()
    window, reset = _window(now, window_seconds)
    counter = f"rate:{key}:{window}"
    try:
        cache.add(counter, 0, timeout=window_seconds + 1)
        count = cache.incr(counter)
    except Exception:
        logger.exception("rate limit %s: the cache did not answer; allowed", key)
        # Nothing was counted: the whole budget is what can be said, honestly.
        return Verdict(True, 0, limit, limit, reset, window_seconds)
    remaining = max(0, limit - count)
    if count <= limit:
        return Verdict(True, 0, limit, remaining, reset, window_seconds)
    return Verdict(False, reset, limit, 0, reset, window_seconds)


def peek(key: str, *, limit: int, window_seconds: int) -> Verdict:
    """What ``take`` would say of the requests counted so far, without counting one."""
    now = time.time()
    window, reset = _window(now, window_seconds)
    try:
        count = int(cache.get(f"rate:{key}:{window}") or 0)
    except Exception:
        logger.exception("rate limit %s: the cache did not answer", key)
        count = 0
    return Verdict(
        count < limit, 0 if count < limit else reset, limit, max(0, limit - count), reset, window_seconds
    )


def key_of(secret: str) -> str:
    """A secret (an API token) as a counter's key: its hash, never the secret itself."""
    return hashlib.sha256(secret.encode()).hexdigest()[:32]


def headers(verdict: Verdict) -> dict[str, str]:
    """The RateLimit header fields of ``verdict`` (and Retry-After when it refuses)."""
    fields = {
        "RateLimit-Limit": str(verdict.limit),
        "RateLimit-Remaining": str(verdict.remaining),
        "RateLimit-Reset": str(verdict.reset),
        "RateLimit-Policy": f"{verdict.limit};w={verdict.window_seconds}",
    }
    if not verdict.allowed:
        fields["Retry-After"] = str(verdict.retry_after)
    return fields


_REQUEST_ATTRIBUTE = "_rate_limit_verdict"


def remember(request: HttpRequest, verdict: Verdict) -> None:
    """Keep ``verdict`` with the request, for the middleware to write on its answer."""
    setattr(request, _REQUEST_ATTRIBUTE, verdict)


def remembered(request: HttpRequest) -> Verdict | None:
    verdict = getattr(request, _REQUEST_ATTRIBUTE, None)
    return verdict if isinstance(verdict, Verdict) else None


class RateLimitHeadersMiddleware:
    """Writes the RateLimit header fields on every answer whose request was counted
    (``remember``), and on every other answer under ``/api/`` to a request carrying a
    bearer token: an address nothing answers, a request stopped before its view. Those
    were not counted; the caller's counter is read as it stands (``games.api.peek``).
    Outside ``api_errors.ApiJsonErrorsMiddleware``, so its JSON errors get them too."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        verdict = remembered(request)
        # A 401 has no budget to show: its token is no caller's.
        if verdict is None and request.path.startswith("/api/") and response.status_code != 401:
            from games.api import peek  # the API's counters: its keys, its limit

            verdict = peek(request)
        if verdict is not None:
            for name, value in headers(verdict).items():
                if name == "Retry-After" and name in response:
                    continue  # the view's own (a 503 busy's) stands
                response[name] = value
        return response
