"""Organisers set tournaments up here, and act on them through the admin actions.

Settings are checked by ``setup.setup_problems`` (each problem on its field); once a
tournament has started its settings are read-only. Entries, rounds and tables are
written by the services only: shown here, never edited.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from games.bots import LEVELS
from games.tournaments import services
from games.tournaments.models import Entry, Round, Table, Tournament
from games.tournaments.setup import setup_problems

SETTINGS_FIELDS = (
    "game", "options", "format", "table_size", "advance", "swiss_rounds", "registration_opens_at",
    "registration_closes_at", "starts_at", "max_entrants", "seeding", "turn_limit",
    "timeouts_to_forfeit", "vacation_allowed", "bot_fill_level", "rated",
)  # fmt: skip


class TournamentForm(forms.ModelForm):
    bot_fill_level = forms.ChoiceField(
        required=False,
        choices=[("", "No bots: empty places stay empty")] + [(level, level.title()) for level in LEVELS],
        help_text="Fill the empty places with bots of this level when the tournament starts.",
    )

    class Meta:
        model = Tournament
        fields = ("name", "description", *SETTINGS_FIELDS)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.errors:
            return cleaned  # a field is missing or malformed: its own error says so
        candidate = Tournament(**{field: cleaned.get(field) for field in SETTINGS_FIELDS if field in cleaned})
        candidate.options = cleaned.get("options") or {}
        for field, problems in setup_problems(candidate).items():
            for problem in problems:
                self.add_error(field if field in self.fields else None, problem)
        return cleaned


class EntryInline(admin.TabularInline):
    model = Entry
    fields = ("display_name", "user", "seed", "registered_at", "withdrawn_at", "out", "out_in_round")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class RoundInline(admin.TabularInline):
    model = Round
    fields = ("number", "byes", "created_at", "finished_at")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _report(
    modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[Tournament], act: Any
) -> None:
    """Run ``act(tournament_id)`` on each chosen tournament; say what happened to each."""
    for tournament in queryset:
        try:
            outcome = act(tournament.pk)
        except services.TournamentError as error:
            modeladmin.message_user(request, f"{tournament}: {error}", messages.ERROR)
        else:
            modeladmin.message_user(request, f"{tournament}: {outcome}", messages.SUCCESS)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    form = TournamentForm
    list_display = ("name", "game", "format", "table_size", "status", "starts_at", "created_by")
    list_filter = ("status", "game", "format")
    search_fields = ("name",)
    inlines = [EntryInline, RoundInline]
    actions = ["open_registration", "start_now", "cancel", "rerun_advancement"]

    def get_readonly_fields(self, request: HttpRequest, obj: Tournament | None = None) -> tuple[str, ...]:
        shown = ("status", "started_at", "finished_at", "cancelled_because")
        if obj is not None and obj.status not in {Tournament.Status.DRAFT, Tournament.Status.REGISTRATION}:
            return (*shown, *SETTINGS_FIELDS)  # a started tournament keeps the rules it started with
        return shown

    def has_delete_permission(self, request: HttpRequest, obj: Tournament | None = None) -> bool:
        # A draft may be thrown away; a published one has entrants, rounds and history:
        # it is cancelled, which says why on its page.
        allowed = super().has_delete_permission(request, obj)
        return allowed and (obj is None or obj.status == Tournament.Status.DRAFT)

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)  # it would delete published ones too: drafts go one by one
        return actions

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        if not change:
            obj.created_by = request.user  # type: ignore[assignment]
        super().save_model(request, obj, form, change)

    @admin.action(description="Open registration (publish)")
    def open_registration(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        _report(
            self, request, queryset, lambda pk: services.tournament_open(tournament_id=pk) and "published"
        )

    @admin.action(description="Start now (close registration, seat round 1)")
    def start_now(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        def start(pk: int) -> str:
            tournament = services.tournament_start(tournament_id=pk)
            if tournament.status == Tournament.Status.CANCELLED:
                return f"cancelled: {tournament.cancelled_because}"
            return "started"

        _report(self, request, queryset, start)

    @admin.action(description="Cancel")
    def cancel(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        by = f"Cancelled by the organiser ({request.user})."
        _report(
            self,
            request,
            queryset,
            lambda pk: services.tournament_cancel(tournament_id=pk, because=by) and "cancelled",
        )

    @admin.action(description="Re-run advancement (record finished tables, seat the next round)")
    def rerun_advancement(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        _report(self, request, queryset, lambda pk: services.tournament_advance(tournament_id=pk))


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("round", "number", "match", "places")
    fields = ("round", "number", "match", "entries", "places")
    readonly_fields = fields
    raw_id_fields = ("match",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
