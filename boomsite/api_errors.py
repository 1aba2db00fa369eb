"""Every answer under ``/api/`` is JSON, errors included (issue 35, bug 2).

The API's own views answer their errors as ``{"error": {"code", "message"}}``
(``games/api.py``), but some answers are made before or around them: an address that
matches no URL pattern (``/api/matches/abc``, ``/api/nothing``) gets Django's 404 page,
a POST that the CSRF check stops its HTML 403, an exception the usual 500 page. A
program reading the API would find HTML where it expects JSON. This middleware, outside
those that answer early, turns any error answer under ``/api/`` that is not JSON into
the API's error document, with the same status (and the same ``Allow`` or
``Retry-After`` headers). Answers of other paths are left alone.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse

from games.errors import ErrorCode

API_PREFIX = "/api/"

# The code and the words of each status the API's own views do not make themselves.
_ERRORS: dict[int, tuple[str, str]] = {
    400: ("bad_request", "The request could not be read."),
    401: (ErrorCode.UNAUTHORISED, "Send your API token: Authorization: Bearer <token>."),
    403: ("forbidden", "Not allowed. A program sends its API token, not a session cookie (see /api/)."),
    404: ("not_found", "Nothing answers at this address: see /api/ for the API's addresses."),
    405: (ErrorCode.METHOD_NOT_ALLOWED, "This address does not take that method."),
    413: (ErrorCode.TOO_LARGE, "The request body is too large."),
    429: (ErrorCode.RATE_LIMITED, "Too many requests: wait before trying again."),
    500: ("server_error", "Something went wrong on our side; it has been logged. Try again later."),
    503: (ErrorCode.BUSY, "The site is busy. Try again in a few seconds."),
}
# The headers an error answer keeps when it is turned into JSON.
_KEPT_HEADERS = ("Allow", "Retry-After", "WWW-Authenticate")


def is_json(response: HttpResponse) -> bool:
    return response.get("Content-Type", "").split(";", 1)[0].strip() == "application/json"


class ApiJsonErrorsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not request.path.startswith(API_PREFIX) or response.status_code < 400 or is_json(response):
            return response
        return json_error_for(response)


def json_error_for(response: HttpResponse) -> HttpResponse:
    """The API's error document for ``response``'s status, with its kept headers."""
    status = response.status_code
    fallback = (
        ("server_error", "The request failed on our side.")
        if status >= 500
        else ("bad_request", "The request failed.")
    )
    code, message = _ERRORS.get(status, fallback)
    answer = JsonResponse({"error": {"code": str(code), "message": message}}, status=status)
    for header in _KEPT_HEADERS:
        if header in response:
            answer[header] = response[header]
    return answer
