from django.contrib import admin
from django.http import HttpRequest

from games.ratings import rules
from games.ratings.models import Rating, RatingChange


class ReadOnly(admin.ModelAdmin):
    """Ratings are written by the rating services only (a change here would be undone by
    the next ``rebuild_ratings``, and would break the change log's before-and-after chain)."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Rating)
class RatingAdmin(ReadOnly):
    list_display = ["user", "game", "shown", "conservative", "mu", "sigma", "rated_matches", "last_rated_at"]
    list_filter = ["game"]
    search_fields = ["user__username"]
    raw_id_fields = ["user"]

    @admin.display(description="shown", ordering="mu")
    def shown(self, rating: Rating) -> str:
        """The rating as the site shows it ("1500?" while provisional)."""
        return rules.shown(rules.display(rating.mu), provisional=rules.is_provisional(rating.rated_matches))


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnly):
    list_display = [
        "match",
        "user",
        "game",
        "seat",
        "rank",
        "mu_before",
        "mu_after",
        "sigma_after",
        "finished_at",
    ]
    list_filter = ["game"]
    search_fields = ["user__username"]
    raw_id_fields = ["user", "match"]
