"""The admin: matches are read-mostly here; play goes through the site's services.

Staff see of a match what a spectator could: never the seed, the state or a private
match's invitation token, and a move
as the public log tells it, not its raw action (which may hold a secret choice, such
as the boxes a Boom Box player set aside). A superuser may ask for the raw action of
one move at a time (``?secret=1`` on its page, which a link offers); nobody may
filter or search by what is hidden, since a filter that counts answers is an oracle.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.exceptions import DisallowedModelAdminLookup
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils.html import format_html, format_html_join

from games.models import Announcement, ChatMessage, Match, Move, Seat
from games.selectors import move_public_log
from games.services import announcements_send_again

logger = logging.getLogger(__name__)

# The query parameter with which a superuser asks for a move's raw action.
SHOW_SECRET_PARAMETER = "secret"


def _asks_for_secret(request: HttpRequest) -> bool:
    return request.GET.get(SHOW_SECRET_PARAMETER) == "1"


def _refuse_lookups_on(hidden: tuple[str, ...], lookup: str) -> None:
    """Raise for a changelist filter on a hidden field (``?seed__startswith=1``, ``?action__box=...``)."""
    if lookup.split("__", 1)[0] in hidden:
        raise DisallowedModelAdminLookup(f"Filtering on {lookup} is not allowed.")


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "user", "joined_at", "resigned_at", "owes_decision", "rank", "score")
    readonly_fields = fields
    can_delete = False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "status", "visibility", "ply", "created_by", "created_at", "finished_at")
    list_filter = ("game", "status", "visibility")
    search_fields = ("id", "created_by__username", "seats__user__username")
    # The seed and state stay out of the admin too: they would show every hidden card;
    # and a private match's invitation token, which lets whoever has it join.
    exclude = ("seed", "seed_salt", "state", "invite_token")
    hidden_fields = ("seed", "seed_salt", "state", "invite_token")
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

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest | None = None) -> bool:
        _refuse_lookups_on(self.hidden_fields, lookup)
        return super().lookup_allowed(lookup, value, request)


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    """Moves are made by play, never here: the admin only shows them."""

    list_display = ("match", "ply", "seat", "user", "created_at")
    fields = ("match", "ply", "seat", "user", "action_id", "created_at", "public_log")
    readonly_fields = (*fields, "offer_raw_action", "raw_action")
    hidden_fields = ("action",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Move | None = None) -> bool:
        return False

    def get_fields(self, request: HttpRequest, obj: Move | None = None) -> tuple[str, ...]:
        # Staff who are not superusers get neither the raw action nor the offer of it.
        if not request.user.is_superuser:
            return self.fields
        return (*self.fields, "raw_action" if _asks_for_secret(request) else "offer_raw_action")

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        if request.user.is_superuser and _asks_for_secret(request):
            logger.info("%s was shown the raw action of move %s", request.user, object_id)
        return super().change_view(request, object_id, form_url, extra_context)

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest | None = None) -> bool:
        _refuse_lookups_on(self.hidden_fields, lookup)
        return super().lookup_allowed(lookup, value, request)

    @admin.display(description="in the public log")
    def public_log(self, move: Move) -> str:
        texts = move_public_log(move)
        if texts is None:
            return "(this match no longer replays under the current rules)"
        if not texts:
            return "(nothing: the public log tells of this move later, or never)"
        return format_html("<ul>{}</ul>", format_html_join("", "<li>{}</li>", ((text,) for text in texts)))

    @admin.display(description="raw action")
    def offer_raw_action(self, move: Move) -> str:
        return format_html(
            '<a href="?{}=1">Show the raw action</a> (it may hold a secret choice)', SHOW_SECRET_PARAMETER
        )

    @admin.display(description="raw action (secret)")
    def raw_action(self, move: Move) -> str:
        return format_html("<pre>{}</pre>", json.dumps(move.action, indent=2, sort_keys=True))


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("match", "user", "text", "created_at")
    search_fields = ("text", "user__username")


class DeliveredFilter(admin.SimpleListFilter):
    """Where an announcement stands: delivered, still being sent, or given up by the sweep
    (``ANNOUNCEMENT_MAX_ATTEMPTS``: what an operator looks for)."""

    title = "delivered"
    parameter_name = "delivered"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin[Any]) -> list[tuple[str, str]]:
        return [("yes", "Delivered"), ("no", "Not yet"), ("gave_up", "Gave up")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "yes":
            return queryset.filter(delivered_at__isnull=False)
        if self.value() == "no":
            return queryset.filter(delivered_at__isnull=True)
        if self.value() == "gave_up":
            return queryset.filter(delivered_at__isnull=True, gave_up_at__isnull=False)
        return queryset


@admin.register(Announcement)
class AnnouncementAdmin(admin.ModelAdmin):
    """The match-finished outbox (``games/effects.py``): what each subscriber was told and
    whether its work is done, or whether the sweep gave up sending it. Written by play and
    marked by the subscribers, never here; staff may only send an undelivered one again
    now instead of at the sweep's next pass (a given-up one is then owed again)."""

    list_display = ("match", "task_name", "created_at", "sent_at", "attempts", "delivered_at", "gave_up_at")
    list_filter = (DeliveredFilter, "task_name")
    search_fields = ("match__id", "task_name")
    readonly_fields = list_display
    actions = ["send_again"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Announcement | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Announcement | None = None) -> bool:
        return False

    @admin.action(description="Send the selected undelivered announcements again now", permissions=["view"])
    def send_again(self, request: HttpRequest, queryset: QuerySet[Announcement]) -> None:
        selected = list(queryset.values_list("pk", flat=True))
        sent = announcements_send_again(announcement_ids=selected)  # sent once its transaction commits
        skipped = len(selected) - sent
        if sent:
            self.message_user(request, f"Sent again: {sent}.", messages.SUCCESS)
        if skipped:
            self.message_user(request, f"Left alone, delivered already: {skipped}.", messages.WARNING)
