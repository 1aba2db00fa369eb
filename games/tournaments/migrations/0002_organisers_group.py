"""The "Organisers" group: staff in it set tournaments up and run them (add, change,
publish, start, cancel, re-run advancement, delete a draft) and see their entries,
rounds and tables, without being superuser (issue 33).

The permissions are made here first: Django makes them after the last migration
(post_migrate), too late for a new database.
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP = "Organisers"  # games/tournaments/setup.py ORGANISERS_GROUP; a test checks they agree
PERMISSIONS = (
    "add_tournament",
    "change_tournament",
    "delete_tournament",
    "view_tournament",
    "view_entry",
    "view_round",
    "view_table",
)


def add_group(apps, schema_editor):
    config = apps.get_app_config("tournaments")
    models_module = getattr(config, "models_module", None)
    # create_permissions skips an app without a models module, as a migration's state has.
    config.models_module = models_module or True
    create_permissions(config, apps=apps, verbosity=0)
    config.models_module = models_module
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP)
    group.permissions.add(
        *Permission.objects.filter(content_type__app_label="tournaments", codename__in=PERMISSIONS)
    )


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(add_group, remove_group)]
