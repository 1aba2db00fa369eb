from django.urls import path

from games.review import views

app_name = "review"

urlpatterns = [
    path("matches/<int:match_id>/review", views.review_page, name="page"),
    path("matches/<int:match_id>/review/start", views.review_start, name="start"),
    path("matches/<int:match_id>/review/status", views.review_status, name="status"),
    path("matches/<int:match_id>/review.json", views.review_json, name="json"),
]
