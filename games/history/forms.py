"""The History filters, read from a query string (the pages, the export and the API alike).

A plain form, so every bad value is a field error the page shows, or the API answers,
and nothing reaches the query unchecked. Dates are whole days in the viewer's time zone.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta, tzinfo
from typing import Any

from django import forms

from games.engine import all_games
from games.errors import ErrorCode
from games.history import cursors
from games.history.selectors import OUTCOMES, HistoryFilters

# Dates outside these are refused rather than turned into moments: the site has no
# matches before 2000, and day arithmetic at the ends of the calendar overflows.
FIRST_DAY = date(2000, 1, 1)
LAST_DAY = date(2999, 12, 31)


class HistoryFilterForm(forms.Form):
    game = forms.ChoiceField(required=False)
    opponent = forms.CharField(
        required=False, max_length=150, label="Opponent", help_text="Part of a name or username."
    )
    result = forms.ChoiceField(required=False, choices=[("", "Any result"), *OUTCOMES.items()])
    bots = forms.ChoiceField(
        required=False,
        label="Bots",
        choices=[("", "With or without bots"), ("with", "With bots"), ("without", "Without bots")],
    )
    rated = forms.ChoiceField(
        required=False, label="Rated", choices=[("", "Rated or not"), ("yes", "Rated"), ("no", "Not rated")]
    )
    since = forms.DateField(required=False, label="From", widget=forms.DateInput(attrs={"type": "date"}))
    until = forms.DateField(required=False, label="To", widget=forms.DateInput(attrs={"type": "date"}))
    # Where the page starts: the signed cursor of the page before (games/history/cursors.py).
    after = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(self, data: Any, *, zone: tzinfo) -> None:
        super().__init__(data)
        self.zone = zone
        game_field = self.fields["game"]
        assert isinstance(game_field, forms.ChoiceField)
        game_field.choices = [("", "Any game"), *((game.slug, game.name) for game in all_games())]

    def clean_since(self) -> date | None:
        return _in_range(self.cleaned_data.get("since"))

    def clean_until(self) -> date | None:
        return _in_range(self.cleaned_data.get("until"))

    def clean_after(self) -> cursors.Cursor | None:
        text = self.cleaned_data.get("after") or ""
        if not text:
            return None
        try:
            return cursors.decode(text)
        except cursors.BadCursor as error:
            raise forms.ValidationError(str(error), code=ErrorCode.BAD_CURSOR) from None

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        since, until = cleaned.get("since"), cleaned.get("until")
        if since and until and since > until:
            raise forms.ValidationError({"until": "The last day comes before the first."})
        return cleaned

    def filters(self) -> HistoryFilters:
        """The valid form's filters (call after ``is_valid``)."""
        data = self.cleaned_data
        since, until = data["since"], data["until"]
        return HistoryFilters(
            game=data["game"] or None,
            opponent=data["opponent"],
            outcome=data["result"] or None,
            bots=data["bots"] or None,
            rated={"yes": True, "no": False}.get(data["rated"]),
            finished_from=self._start_of(since) if since else None,
            finished_before=self._start_of(until + timedelta(days=1)) if until else None,
        )

    def cursor(self) -> cursors.Cursor | None:
        return self.cleaned_data["after"]

    def has_bad_cursor(self) -> bool:
        return "after" in self.errors

    def error_text(self) -> str:
        """Every error in one line, for the API: "since: Enter a valid date."."""
        lines = []
        for name, messages in self.errors.items():
            text = " ".join(str(message) for message in messages)
            lines.append(text if name == "__all__" else f"{name}: {text}")
        return " ".join(lines)

    def _start_of(self, day: date) -> datetime:
        return datetime.combine(day, time.min, tzinfo=self.zone)


def _in_range(day: date | None) -> date | None:
    if day is not None and not FIRST_DAY <= day <= LAST_DAY:
        raise forms.ValidationError(f"Give a day from {FIRST_DAY.isoformat()} to {LAST_DAY.isoformat()}.")
    return day
