from django.urls import path

from games import views

urlpatterns = [
    path("play/", views.play, name="play"),
    path("play/<slug:slug>/", views.game_detail, name="game_detail"),
    path("matches/", views.my_matches, name="my_matches"),
    path("history/", views.history, name="history"),
    path("tournaments/", views.tournaments, name="tournaments"),
]
