from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.models import User


@admin.register(User)
class BoomsiteUserAdmin(UserAdmin):
    list_display = ("username", "display_name", "email", "is_bot", "bot_level", "is_staff", "date_joined")
    list_filter = ("is_bot", "is_staff", "is_active")
    fieldsets = (
        *(UserAdmin.fieldsets or ()),
        ("Boomsite", {"fields": ("display_name", "time_zone", "is_bot", "bot_level")}),
    )
