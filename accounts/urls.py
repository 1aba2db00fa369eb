from django.urls import path

from accounts import views

urlpatterns = [
    path("settings/", views.account_settings, name="account_settings"),
    path("settings/notifications", views.notification_settings, name="notification_settings"),
    path("settings/tokens/new", views.api_token_new, name="api_token_new"),
    path("settings/tokens/<int:token_id>/revoke", views.api_token_delete, name="api_token_revoke"),
    path("settings/bot-account", views.bot_account, name="bot_account"),
]
