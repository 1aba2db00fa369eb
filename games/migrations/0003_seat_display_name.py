"""Names fixed for a match: each seat keeps its player's name from the match's start, and
each chat message its writer's, so renaming mid-game changes nothing at the table.
Matches already started take their players' names as they are now; open matches are
named when they start."""

from typing import Any

from django.db import migrations, models

STARTED = ("running", "finished")


def public_name(user: Any) -> str:
    return user.display_name or user.username  # accounts.User.public_name


def name_started_seats_and_chat(apps: Any, schema_editor: Any) -> None:
    Seat = apps.get_model("games", "Seat")
    ChatMessage = apps.get_model("games", "ChatMessage")
    seats = list(Seat.objects.filter(match__status__in=STARTED, user__isnull=False).select_related("user"))
    for seat in seats:
        seat.display_name = public_name(seat.user)
    Seat.objects.bulk_update(seats, ["display_name"], batch_size=1000)
    seat_name = {(seat.match_id, seat.user_id): seat.display_name for seat in seats}
    messages = list(ChatMessage.objects.select_related("user"))
    for message in messages:
        message.author_name = seat_name.get((message.match_id, message.user_id)) or public_name(message.user)
    ChatMessage.objects.bulk_update(messages, ["author_name"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_wide_seeds_and_keyed_generator"),
    ]

    operations = [
        migrations.AddField(
            model_name="chatmessage",
            name="author_name",
            field=models.CharField(blank=True, editable=False, max_length=150),
        ),
        migrations.AddField(
            model_name="seat",
            name="display_name",
            field=models.CharField(blank=True, editable=False, max_length=150),
        ),
        migrations.RunPython(name_started_seats_and_chat, migrations.RunPython.noop),
    ]
