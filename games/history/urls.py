"""History's addresses, included at the site's root (they live under /history/, /matches/
and /api/). The names are global: ``history`` is the navigation's link (``links.py``, settings ``NAV_LINKS``)."""

from django.urls import path

from games.history import api, views

urlpatterns = [
    path("history/", views.my_history, name="history"),
    path("history/export.jsonl", views.my_export, name="history_export"),
    path("history/players/<str:username>/", views.player_history, name="history_player"),
    path("matches/<int:match_id>/export.json", views.match_export, name="match_export"),
    path("api/history", api.history_list, name="api_history"),
]
