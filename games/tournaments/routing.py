"""The tournaments' WebSocket routes, composed with the core's in boomsite/asgi.py (the
core's games/live/routing.py imports no feature)."""

from django.urls import path

from games.tournaments import consumers

websocket_urlpatterns = [
    path("ws/tournaments/<int:tournament_id>/", consumers.TournamentConsumer.as_asgi()),
]
