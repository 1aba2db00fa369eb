from django.contrib import admin
from django.http import HttpRequest

from games.review.models import Review, ReviewedDecision


class ReadOnly(admin.ModelAdmin):
    """Reviews are written by the review services only: an opinion edited here would no
    longer be the expert's, and a deleted review is simply asked for again."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Review)
class ReviewAdmin(ReadOnly):
    list_display = ["match", "user", "decisions", "iterations", "attempt", "requested_at", "finished_at"]
    search_fields = ["user__username"]
    raw_id_fields = ["match", "user"]


@admin.register(ReviewedDecision)
class ReviewedDecisionAdmin(ReadOnly):
    list_display = [
        "review",
        "ply",
        "seat",
        "agrees",
        "choices",
        "value_best",
        "value_played",
        "seconds",
        "playouts",
    ]
    list_filter = ["agrees"]
    raw_id_fields = ["review"]
