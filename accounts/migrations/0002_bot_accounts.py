"""The bot accounts, one per level. They have no usable password and cannot log in."""

from django.contrib.auth.hashers import make_password
from django.db import migrations

BOTS = [
    ("bot-random", "Random Bot", "random"),
    ("bot-basic", "Basic Bot", "basic"),
    ("bot-expert", "Expert Bot", "expert"),
]


def create_bots(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    for username, display_name, level in BOTS:
        User.objects.update_or_create(
            username=username,
            defaults={
                "display_name": display_name,
                "is_bot": True,
                "bot_level": level,
                "email": "",
                "password": make_password(None),  # unusable: no password can match
            },
        )


def remove_bots(apps, schema_editor):
    apps.get_model("accounts", "User").objects.filter(username__in=[bot[0] for bot in BOTS]).delete()


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_initial")]

    operations = [migrations.RunPython(create_bots, remove_bots)]
