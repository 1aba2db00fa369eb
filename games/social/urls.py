"""Friends, challenges and blocks, included at the site's root: the buttons on a
person (under their profile's address) and the challenge API (docs/api.md)."""

from django.urls import path

from games.social import api, views

app_name = "social"

urlpatterns = [
    path("players/<str:username>/challenge", views.challenge, name="challenge"),
    path("players/<str:username>/follow", views.follow, name="follow"),
    path("players/<str:username>/unfollow", views.unfollow, name="unfollow"),
    path("players/<str:username>/block", views.block, name="block"),
    path("players/<str:username>/unblock", views.unblock, name="unblock"),
    path("api/challenges", api.challenges, name="api_challenges"),
    path("api/challenges/<int:match_id>/accept", api.accept, name="api_accept"),
    path("api/challenges/<int:match_id>/decline", api.decline, name="api_decline"),
]
