"""The profile's address, included at the site's root. Its name is global (``profile``):
the navigation, match pages, History and the leaderboards link to it."""

from django.urls import path

from games.profiles import views

urlpatterns = [
    path("players/<str:username>/", views.profile, name="profile"),
]
