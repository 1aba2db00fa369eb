from django.urls import path

from games.tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("<int:tournament_id>/", views.tournament_page, name="detail"),
    path("<int:tournament_id>/live", views.tournament_live, name="live"),
    path("<int:tournament_id>/register", views.tournament_register, name="register"),
    path("<int:tournament_id>/withdraw", views.tournament_withdraw, name="withdraw"),
    path("<int:tournament_id>/export.json", views.tournament_export_json, name="export_json"),
    path("<int:tournament_id>/export.csv", views.tournament_export_csv, name="export_csv"),
]
