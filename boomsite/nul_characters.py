"""Refuse a request whose address, query, cookies or form fields hold a NUL character.

No text column stores NUL: PostgreSQL refuses it (psycopg raises ``DataError`` before
sending the query), so a NUL that reached a query answered 500, e.g. a player's page
at ``/players/a%00b/`` or an API token named "my\\x00bot". Every view would have to
check every string it passes on; here it is refused once, before any view, with a 400
that says why. (JSON bodies are checked where they are parsed: ``games/inputs.py``.)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.http import HttpRequest, HttpResponse, JsonResponse

MESSAGE = "Text may not contain NUL characters."


class NulCharactersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if _holds_nul(request):
            if request.path.startswith("/api/"):
                return JsonResponse({"error": {"code": "bad_text", "message": MESSAGE}}, status=400)
            return HttpResponse(
                f"Bad request: {MESSAGE}", status=400, content_type="text/plain; charset=utf-8"
            )
        return self.get_response(request)


def _holds_nul(request: HttpRequest) -> bool:
    texts: list[Iterable[str]] = [
        [request.path],
        request.GET.keys(),
        (value for values in request.GET.lists() for value in values[1]),
        request.COOKIES.keys(),
        request.COOKIES.values(),
    ]
    if request.method == "POST" and request.content_type in {
        "application/x-www-form-urlencoded",
        "multipart/form-data",
    }:
        texts += [request.POST.keys(), (value for values in request.POST.lists() for value in values[1])]
    return any("\x00" in text for group in texts for text in group)
