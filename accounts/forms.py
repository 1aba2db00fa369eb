from django import forms

from accounts.models import User
from accounts.names import display_name_checked


class AccountSettingsForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ["display_name", "time_zone"]
        labels = {"display_name": "Display name", "time_zone": "Time zone"}

    def clean_display_name(self) -> str:
        return display_name_checked(self.cleaned_data["display_name"], user=self.instance)


class NotificationSettingsForm(forms.ModelForm):
    """Which emails the player gets (games/notify); the choices and their checks are the model's."""

    class Meta:
        model = User
        fields = ["notify_turn", "notify_invitation", "notify_game_over", "digest_hour"]
        labels = {
            "notify_turn": "Your turn, and “about to lose on time”",
            "notify_invitation": "Invitations, and your tournament tables",
            "notify_game_over": "A match or a tournament is over",
            "digest_hour": "Send the daily digest at",
        }
        help_texts = {
            "notify_turn": "An email once you have not played for a while, and another before your time runs out.",
            "notify_invitation": "When someone invites you to a match, and when a tournament you entered starts or seats you at a table.",
            "notify_game_over": "When a match you played ends, and when a tournament you entered ends (your place, the winner).",
            "digest_hour": "In your time zone. The digest lists the matches waiting for you, sorted by time left; no digest when nothing waits.",
        }
