from django import forms

from accounts.models import User


class AccountSettingsForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ["display_name", "time_zone"]
        labels = {"display_name": "Display name", "time_zone": "Time zone"}

    def clean_display_name(self) -> str:
        name: str = self.cleaned_data["display_name"].strip()
        if name.lower().endswith(" bot"):
            raise forms.ValidationError("Names ending in “Bot” are kept for the site's bots.")
        return name
