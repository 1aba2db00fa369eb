from django.urls import path

from games.live import consumers, streams

websocket_urlpatterns = [
    path("ws/matches/<int:match_id>/", consumers.MatchConsumer.as_asgi()),
    path("ws/me/", consumers.MeConsumer.as_asgi()),
]

# The programs' streams, newline-delimited JSON over HTTP with an API token (docs/api.md,
# "Streams"): beside the API's other addresses, answered outside Django's views.
http_urlpatterns = [
    path("api/stream/events", streams.EventStream.as_asgi()),
    path("api/matches/<int:match_id>/stream", streams.MatchStream.as_asgi()),
]
