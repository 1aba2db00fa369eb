from django.urls import path

from games.ratings import views

app_name = "ratings"

urlpatterns = [
    path("play/<slug:slug>/leaderboard", views.leaderboard, name="leaderboard"),
]
