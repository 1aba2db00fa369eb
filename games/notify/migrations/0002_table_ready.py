from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("notify", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="notice",
            name="about",
            field=models.CharField(blank=True, max_length=200),
        ),
        migrations.AlterField(
            model_name="notice",
            name="kind",
            field=models.CharField(
                choices=[
                    ("turn", "Your turn"),
                    ("alarm", "About to lose on time"),
                    ("invitation", "Invitation"),
                    ("game_over", "Match over"),
                    ("digest", "Daily digest"),
                    ("table", "Tournament table ready"),
                ],
                max_length=10,
            ),
        ),
    ]
