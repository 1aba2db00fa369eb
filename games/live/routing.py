from django.urls import path

from games.live import consumers

websocket_urlpatterns = [
    path("ws/matches/<int:match_id>/", consumers.MatchConsumer.as_asgi()),
    path("ws/me/", consumers.MeConsumer.as_asgi()),
]
