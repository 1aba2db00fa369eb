from django.contrib import admin
from django.urls import include, path

from accounts import views as account_views
from boomsite import health, views

# The site's own page for an address nothing answers (with DEBUG off; see boomsite/not_found.py).
handler404 = "boomsite.views.not_found"

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", health.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("players/<str:username>/", account_views.profile, name="profile"),
    path("accounts/", include("accounts.urls")),
    path("accounts/", include("allauth.urls")),
    path("notify/", include("games.notify.urls")),
    path("", include("games.ratings.urls")),
    path("", include("games.review.urls")),
    path("", include("games.history.urls")),
    path("", include("games.urls")),
]
