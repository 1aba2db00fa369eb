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
