"""Organisers set tournaments up here, and act on them through the admin actions.

The form asks in words, never in JSON or seconds: the game's options are fields built
from the game's declared options by the lobby's builder (``games.forms``), one group
per game, and only the chosen game's group is read (``static/js/tournament_admin.js``
hides the others; without it every group shows, each saying so); the time control is
the lobby's list. Settings are checked by ``setup.setup_problems``, every problem at
once, each on its field, and nothing is saved while one remains. Ticking "Publish"
opens registration on save (``services.tournament_open``); a tournament saved without
it is a draft, shown to nobody.

Once started its settings are read-only, shown in words. Entries, rounds and tables
are written by the services only: shown here, never edited. The "Organisers" group
(migration 0002) may do all of this without being superuser.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import flatten_fieldsets
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse

from games import clocks
from games.boards.option_words import options_in_words
from games.bots import LEVELS
from games.engine import Game, IllegalAction, all_games, get
from games.forms import option_form_fields, options_from_cleaned, time_control_choices
from games.tournaments import selectors, services
from games.tournaments.models import Entry, Round, Table, Tournament
from games.tournaments.setup import field_warning, setup_problems

SETTINGS_FIELDS = (
    "game", "format", "table_size", "advance", "swiss_rounds", "registration_opens_at",
    "registration_closes_at", "starts_at", "max_entrants", "seeding", "turn_limit",
    "timeouts_to_forfeit", "vacation_allowed", "bot_fill_level", "rated",
)  # fmt: skip
# What a started tournament shows instead of its settings: the same facts, in words.
SETTINGS_IN_WORDS = (
    "game_in_words", "options_in_words", "format", "table_size", "advance", "swiss_rounds",
    "registration_opens_at", "registration_closes_at", "starts_at", "field_size", "seeding",
    "time_control", "timeouts_to_forfeit", "vacation_allowed", "bot_fill", "rated",
)  # fmt: skip
STATUS_FIELDS = ("status", "started_at", "finished_at", "cancelled_because")
BOT_FILL_CHOICES = [("", "No bots: places nobody takes stay empty")] + [
    (level, f"Fill up to the field size with {level} bots") for level in LEVELS
]


def option_games() -> list[Game[Any]]:
    """The games whose options the form asks for: those with options that a tournament
    can play (a cooperative game has nobody to rank; choosing one is refused)."""
    return [game for game in all_games() if game.options and not game.is_cooperative]


def option_prefix(game: Game[Any]) -> str:
    """The form's fields of a game's options: ``options__ka_blam__length``, ..."""
    return f"options__{game.slug.replace('-', '_')}__"


class TournamentForm(forms.ModelForm):
    turn_limit = forms.TypedChoiceField(
        label="Time control",
        choices=[("", "— choose one —"), *time_control_choices(with_none=False)],
        coerce=int,
        empty_value=None,
        help_text="Each player's time per turn, as in the lobby. When it runs out the autopilot plays "
        "the turn; after the timeouts in a row below, the player forfeits and is out.",
    )
    bot_fill_level = forms.ChoiceField(
        label="Bot fill",
        required=False,
        choices=BOT_FILL_CHOICES,
        help_text="When the tournament starts, bots of this level take every place nobody took, up to "
        "the field size. A tournament nobody entered never starts with bots only.",
    )
    publish = forms.BooleanField(
        required=False,
        label="Publish",
        help_text="Tick to list it on the site when you save: people can register from the time "
        "registration opens. Unticked, it stays a draft shown to nobody (staff can check its page).",
    )

    class Meta:
        model = Tournament
        fields = ("name", "description", *SETTINGS_FIELDS)
        labels = {
            "max_entrants": "Field size",
            "table_size": "Table size",
            "advance": "Going on from each table",
            "swiss_rounds": "Rounds",
            "timeouts_to_forfeit": "Timeouts to forfeit",
        }
        help_texts = {
            "max_entrants": "The number of places: people register until they are taken; with bot fill, "
            "bots take the places left at the start. In single elimination by pairs, 4, 8, 16, 32… "
            "fill every table with no byes.",
        }

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.option_fields_of: dict[str, list[str]] = {}
        instance: Tournament = self.instance
        self.has_settings = _is_editable(instance if instance.pk is not None else None)
        if not self.has_settings:
            # Started: its settings are shown in words (read-only); the form keeps only
            # what may still change.
            for name in [name for name in self.fields if name not in ("name", "description")]:
                del self.fields[name]
            return
        for game in option_games():
            fields = option_form_fields(game, prefix=option_prefix(game))
            for field in fields.values():
                field.required = False  # only the chosen game's are read: clean() checks those
            self.fields.update(fields)
            self.option_fields_of[game.slug] = list(fields)
        for field in self.fields.values():
            # The admin's split date and time inputs have no label of their own (the
            # field's label names neither): a screen reader would read them unnamed.
            parts = getattr(field.widget, "widgets", None)
            if isinstance(field, forms.SplitDateTimeField) and parts is not None:
                parts[0].attrs["aria-label"] = f"{field.label}: date"
                parts[1].attrs["aria-label"] = f"{field.label}: time"
        if instance.pk is None:
            self.initial.setdefault("max_entrants", 8)
        elif instance.game in self.option_fields_of:
            prefix = option_prefix(get(instance.game))
            for name, value in (instance.options or {}).items():
                self.initial[f"{prefix}{name}"] = value
        if instance.pk is not None and instance.status != Tournament.Status.DRAFT:
            del self.fields["publish"]  # published already

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if not self.has_settings:
            return cleaned
        chosen = cleaned.get("game") or ""
        for slug, names in self.option_fields_of.items():
            if slug != chosen:
                for name in names:  # another game's options: never read, so never wrong
                    self.errors.pop(name, None)
                    cleaned.pop(name, None)
        options: dict[str, Any] = {}
        option_field = None
        if chosen in self.option_fields_of:
            game = get(chosen)
            prefix = option_prefix(game)
            option_field = f"{prefix}{game.options[0].name}"
            options = options_from_cleaned(game, cleaned, prefix=prefix)
            for option in game.options:
                name = f"{prefix}{option.name}"
                if options[option.name] in (None, "") and name not in self.errors:
                    self.add_error(name, "This field is required.")  # the chosen game's are required
            options = {name: value for name, value in options.items() if value not in (None, "")}
        cleaned["options"] = options
        # Every problem at once: a field with an error of its own is None here, and
        # only the checks that need it are skipped.
        candidate = Tournament(**{field: cleaned.get(field) for field in SETTINGS_FIELDS})
        candidate.options = options
        for field, problems in setup_problems(candidate).items():
            target = option_field if field == "options" else field
            if target is not None and target not in self.fields:
                target = None
            if target is not None and target in self.errors:
                continue  # its own error says it already
            for problem in problems:
                self.add_error(target, problem)
        return cleaned

    def save(self, commit: bool = True) -> Tournament:
        if self.has_settings:
            self.instance.options = self.cleaned_data["options"]
        tournament: Tournament = super().save(commit)
        return tournament


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


def _is_editable(obj: Tournament | None) -> bool:
    return obj is None or obj.status in {Tournament.Status.DRAFT, Tournament.Status.REGISTRATION}


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    form = TournamentForm
    list_display = ("name", "game", "format", "table_size", "status", "starts_at", "created_by")
    list_filter = ("status", "game", "format")
    search_fields = ("name",)
    inlines = [EntryInline, RoundInline]
    actions = ["open_registration", "start_now", "cancel", "rerun_advancement"]

    class Media:
        js = ["js/tournament_admin.js"]

    def view_on_site(self, obj: Tournament) -> str:
        return obj.get_absolute_url()  # a draft's page shows to staff only: to check it before publishing

    def _shows_in_words(self, request: HttpRequest, obj: Tournament | None) -> bool:
        """Started, or shown to someone who may only look: the settings in words."""
        return not _is_editable(obj) or (obj is not None and not self.has_change_permission(request, obj))

    def get_fieldsets(self, request: HttpRequest, obj: Tournament | None = None) -> Any:
        if self._shows_in_words(request, obj):
            return [
                (None, {"fields": ("name", "description")}),
                (
                    "Settings" if _is_editable(obj) else "Settings (fixed: it has started)",
                    {"fields": SETTINGS_IN_WORDS},
                ),
                ("Status", {"fields": STATUS_FIELDS}),
            ]
        game_options = [
            (
                f"{game.name} options",
                {
                    "fields": list(option_form_fields(game, prefix=option_prefix(game))),
                    "classes": ("game-options", f"game-options-{game.slug}"),
                    "description": f"Read only when the game is {game.name}.",
                },
            )
            for game in option_games()
        ]
        fieldsets: list[Any] = [
            (None, {"fields": ("name", "description", "game")}),
            *game_options,
            ("Format", {"fields": ("format", "table_size", "advance", "swiss_rounds")}),
            ("Field", {"fields": ("max_entrants", "bot_fill_level", "seeding")}),
            ("Dates", {"fields": ("registration_opens_at", "registration_closes_at", "starts_at")}),
            ("Play", {"fields": ("turn_limit", "timeouts_to_forfeit", "vacation_allowed", "rated")}),
        ]
        if obj is None or obj.status == Tournament.Status.DRAFT:
            fieldsets.append(("Publish", {"fields": ("publish",)}))
        if obj is not None:
            fieldsets.append(("Status", {"fields": STATUS_FIELDS}))
        return fieldsets

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        # The games' option fields are made by the form itself (``TournamentForm.__init__``):
        # the model knows none of them, so the form class is built without them.
        shown = kwargs.get("fields") or flatten_fieldsets(self.get_fieldsets(request, obj))
        kwargs["fields"] = [name for name in shown if not name.startswith("options__")]
        return super().get_form(request, obj, change, **kwargs)

    def get_readonly_fields(self, request: HttpRequest, obj: Tournament | None = None) -> tuple[str, ...]:
        if self._shows_in_words(request, obj):
            # A started tournament keeps the rules it started with.
            return (*STATUS_FIELDS, *SETTINGS_IN_WORDS)
        return STATUS_FIELDS

    # -- a started tournament's settings, in words --------------------------------------

    @admin.display(description="Game")
    def game_in_words(self, obj: Tournament) -> str:
        try:
            return get(obj.game).name
        except IllegalAction:
            return obj.game

    @admin.display(description="Options")
    def options_in_words(self, obj: Tournament) -> str:
        try:
            game = get(obj.game)
        except IllegalAction:
            return ""
        if not game.options:
            return f"{game.name} has no options."
        words = options_in_words(game, obj.options or {})
        return "; ".join(f"{option['label']}: {option['words']}" for option in words) or "The defaults"

    @admin.display(description="Field size")
    def field_size(self, obj: Tournament) -> str:
        return f"{obj.max_entrants} places"

    @admin.display(description="Time control")
    def time_control(self, obj: Tournament) -> str:
        return clocks.describe(obj.turn_limit)

    @admin.display(description="Bot fill")
    def bot_fill(self, obj: Tournament) -> str:
        return dict(BOT_FILL_CHOICES).get(obj.bot_fill_level, obj.bot_fill_level)

    # -- the change page: the field's warning and round 1 before the start ---------------

    def render_change_form(
        self,
        request: HttpRequest,
        context: dict[str, Any],
        add: bool = False,
        change: bool = False,
        form_url: str = "",
        obj: Tournament | None = None,
    ) -> HttpResponse:
        if obj is not None and _is_editable(obj):
            context["field_warning"] = field_warning(obj)
            context["preview"] = None if setup_problems(obj) else selectors.first_round_preview(obj)
        return super().render_change_form(request, context, add, change, form_url, obj)

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
        warning = field_warning(obj)
        if warning:
            self.message_user(request, warning, messages.WARNING)
        if form.cleaned_data.get("publish") and obj.status == Tournament.Status.DRAFT:
            try:
                services.tournament_open(tournament_id=obj.pk)
            except services.TournamentError as error:
                self.message_user(request, f"Saved, but not published: {error}", messages.ERROR)
            else:
                obj.refresh_from_db()
                self.message_user(request, f"{obj} is published.", messages.SUCCESS)

    # -- actions: each needs the permission to change tournaments -------------------------

    @admin.action(description="Open registration (publish)", permissions=["change"])
    def open_registration(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        _report(
            self, request, queryset, lambda pk: services.tournament_open(tournament_id=pk) and "published"
        )

    @admin.action(description="Start now (close registration, seat round 1)", permissions=["change"])
    def start_now(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        def start(pk: int) -> str:
            tournament = services.tournament_start(tournament_id=pk)
            if tournament.status == Tournament.Status.CANCELLED:
                return f"cancelled: {tournament.cancelled_because}"
            return "started"

        _report(self, request, queryset, start)

    @admin.action(description="Cancel", permissions=["change"])
    def cancel(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        by = f"Cancelled by the organiser ({request.user})."
        _report(
            self,
            request,
            queryset,
            lambda pk: services.tournament_cancel(tournament_id=pk, because=by) and "cancelled",
        )

    @admin.action(
        description="Re-run advancement (record finished tables, seat the next round)", permissions=["change"]
    )
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
