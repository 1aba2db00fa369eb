from django.apps import AppConfig


class NotifyConfig(AppConfig):
    name = "games.notify"
    label = "notify"
    verbose_name = "Notifications"
