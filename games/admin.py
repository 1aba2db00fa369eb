"""The admin: matches are read-mostly here; play goes through the site's services."""

from __future__ import annotations

from django.contrib import admin

from games.models import ChatMessage, Match, Move, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "user", "joined_at", "forfeited_at", "owes_decision", "rank", "score")
    readonly_fields = fields
    can_delete = False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "status", "visibility", "ply", "created_by", "created_at", "finished_at")
    list_filter = ("game", "status", "visibility")
    search_fields = ("id", "created_by__username", "seats__user__username")
    # The seed and state stay out of the admin too: they would show every hidden card.
    exclude = ("seed", "state")
    readonly_fields = (
        "game",
        "options",
        "status",
        "ply",
        "created_by",
        "started_at",
        "finished_at",
        "result",
    )
    inlines = [SeatInline]


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ("match", "ply", "seat", "user", "created_at")
    readonly_fields = ("match", "ply", "seat", "action", "user", "action_id")


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("match", "user", "text", "created_at")
    search_fields = ("text", "user__username")
