from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        # The live part hears the core's changes (games/effects.py), which do not import it.
        from games import effects
        from games.live import push

        effects.MATCH_CHANGED.connect(push.match_changed, dispatch_uid="games.live.push.match_changed")
        effects.CHAT_POSTED.connect(push.chat_posted, dispatch_uid="games.live.push.chat_posted")
