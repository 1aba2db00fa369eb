from django.contrib import admin
from django.http import HttpRequest

from games.notify.models import Notice, PushNotice, PushSubscription


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


@admin.register(PushNotice)
class PushNoticeAdmin(admin.ModelAdmin):
    """Read only: what was decided about each push, as for the emails."""

    list_display = ["kind", "user", "match", "ply", "status", "devices", "note", "claimed_at", "sent_at"]
    list_filter = ["kind", "status"]
    search_fields = ["user__username"]
    raw_id_fields = ["user", "match"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: PushNotice | None = None) -> bool:
        return False


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    """The devices that get pushes: deleting one stops its pushes (the person can turn it on again)."""

    list_display = ["user", "user_agent", "created_at", "last_success_at"]
    search_fields = ["user__username"]
    raw_id_fields = ["user"]
    readonly_fields = ["user", "endpoint", "p256dh", "auth", "user_agent", "created_at", "last_success_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
