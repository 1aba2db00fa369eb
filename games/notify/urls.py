from django.urls import path

from games.notify import views

app_name = "notify"

urlpatterns = [
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("vacation/begin", views.vacation_begin, name="vacation_begin"),
    path("vacation/end", views.vacation_end, name="vacation_end"),
]
