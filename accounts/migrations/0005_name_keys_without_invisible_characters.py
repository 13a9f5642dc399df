"""The keys of existing names again, now without their invisible characters
(accounts.names.name_key): an account named ``alice`` + U+3164 before they were refused
now clashes with ``alice``."""

from importlib import import_module

from django.db import migrations

fill_keys = import_module("accounts.migrations.0003_user_name_keys").fill_keys


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0004_user_time_zone"),
    ]

    operations = [migrations.RunPython(fill_keys, migrations.RunPython.noop)]
