from django.contrib import admin
from django.http import HttpRequest

from games.notify.models import Notice


@admin.register(Notice)
class NoticeAdmin(admin.ModelAdmin):
    """Read only: what was decided about each email, for answering "why did I (not) get it?"."""

    list_display = ["kind", "user", "match", "ply", "day", "about", "status", "note", "claimed_at", "sent_at"]
    list_filter = ["kind", "status"]
    search_fields = ["user__username"]
    raw_id_fields = ["user", "match"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Notice | None = None) -> bool:
        return False
