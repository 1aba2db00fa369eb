"""The ASGI application served by Daphne: HTTP through Django, WebSockets through Channels."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "boomsite.settings")
# A Daphne's database pool is sized for a web process (boomsite/database.py).
os.environ.setdefault("BOOMSITE_PROCESS_KIND", "web")
# Django must be set up before anything imports models (the consumers do).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import OriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402
from django.urls import re_path  # noqa: E402

from boomsite.busy_sockets import BusySocketMiddleware  # noqa: E402
from boomsite.client_address import ClientAddressASGIMiddleware  # noqa: E402
from games.live.routing import http_urlpatterns, websocket_urlpatterns  # noqa: E402
from games.tournaments.routing import websocket_urlpatterns as tournament_sockets  # noqa: E402

application = ProtocolTypeRouter(
    {
        # The programs' streams (games/live/streams.py) are long-lived responses of
        # their own; every other request is Django's.
        "http": URLRouter([*http_urlpatterns, re_path(r"", django_asgi_app)]),  # type: ignore[arg-type]
        # Exactly the site's own origins, scheme and port included (boomsite/origins.py).
        # The client behind TRUSTED_PROXIES in scope["client"], as HTTP has it in REMOTE_ADDR.
        # A handshake that finds the database pool empty is closed with 4503, try again
        # later (boomsite/busy_sockets.py), not refused as a server error.
        "websocket": ClientAddressASGIMiddleware(
            OriginValidator(
                BusySocketMiddleware(
                    AuthMiddlewareStack(URLRouter(websocket_urlpatterns + tournament_sockets))
                ),
                settings.SOCKET_ALLOWED_ORIGINS,
            )
        ),
    }
)
