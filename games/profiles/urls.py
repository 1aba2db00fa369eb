"""The profile's address, included at the site's root. Its name is global (``profile``):
History and the leaderboards link to it; the core's navigation and match pages reach it
through ``games/profiles/links.py`` (settings ``NAV_LINKS``, ``PLAYER_PAGES``)."""

from django.urls import path

from games.profiles import views

urlpatterns = [
    path("players/<str:username>/", views.profile, name="profile"),
]
