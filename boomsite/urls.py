from django.contrib import admin
from django.urls import include, path

from boomsite import health, metrics, views

# The site's own page for an address nothing answers (with DEBUG off; see boomsite/not_found.py).
handler404 = "boomsite.views.not_found"
# A 503 when the database's pool stayed empty too long, the usual 500 otherwise.
handler500 = "boomsite.views.server_error"

urlpatterns = [
    path("", views.home, name="home"),
    path("home/live/", views.home_live, name="home_live"),  # the home page's live parts (static/js/home.js)
    path("healthz", health.healthz, name="healthz"),
    # Prometheus, for the addresses in METRICS_ALLOWED only (boomsite/metrics.py).
    path("metrics", metrics.serve_metrics, name="metrics"),
    path("admin/", admin.site.urls),
    path("", include("games.profiles.urls")),  # /players/<username>/, named "profile"
    path("accounts/", include("accounts.urls")),
    path("accounts/", include("allauth.urls")),
    path("notify/", include("games.notify.urls")),
    path("", include("games.ratings.urls")),
    path("", include("games.review.urls")),
    path("", include("games.history.urls")),
    path("", include("games.social.urls")),  # /players/<username>/challenge, follow, block; /api/challenges
    path("tournaments/", include("games.tournaments.urls")),
    path("", include("games.urls")),
]
