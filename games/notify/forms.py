from django import forms


class VacationForm(forms.Form):
    """How many days away; the bank's limit is the service's to check (games/services/clocks.py)."""

    days = forms.IntegerField(
        min_value=1, error_messages={"invalid": "Give the number of days as a whole number, such as 7."}
    )
