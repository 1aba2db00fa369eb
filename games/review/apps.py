from django.apps import AppConfig


class ReviewConfig(AppConfig):
    name = "games.review"
    label = "review"
    verbose_name = "Post-game reviews"
