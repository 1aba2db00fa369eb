"""Request limits shared by every process of the site: fixed windows counted in the
cache (Redis), so that N Daphne processes still allow each caller one budget.

If the cache does not answer, the request is allowed and the failure logged: a
limit protects the site, it must not take it down with Redis.
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass

from django.core.cache import cache

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Verdict:
    allowed: bool
    retry_after: int  # whole seconds until the window ends (0 when allowed)


def take(key: str, *, limit: int, window_seconds: int) -> Verdict:
    """Count one request of ``key``; refused once ``limit`` were counted this window."""
    now = time.time()
    window = int(now // window_seconds)
    counter = f"rate:{key}:{window}"
    try:
        cache.add(counter, 0, timeout=window_seconds + 1)
        count = cache.incr(counter)
    except Exception:
        logger.exception("rate limit %s: the cache did not answer; allowed", key)
        return Verdict(allowed=True, retry_after=0)
    if count <= limit:
        return Verdict(allowed=True, retry_after=0)
    return Verdict(allowed=False, retry_after=max(1, math.ceil((window + 1) * window_seconds - now)))
