from django.apps import AppConfig


class SocialConfig(AppConfig):
    name = "games.social"
    label = "social"
    verbose_name = "Friends and blocks"
