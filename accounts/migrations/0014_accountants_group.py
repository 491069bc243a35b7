"""The "Accountants" group (issue #22): staff put in it read the room's accounts (the staff
dashboard, the rake report, the statement and the rake API: accounting/access.py), which no
other staff account does. The permission is made here if the post-migrate signal has not made
it yet (a fresh database migrates before it runs)."""

from django.db import migrations

GROUP = "Accountants"
CODENAME = "read_accounts"
NAME = "Can read the room's accounts: dashboard, rake and statements"


def accountants_group_create(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    Group = apps.get_model("auth", "Group")
    player_type, _ = ContentType.objects.get_or_create(app_label="accounts", model="player")
    permission, _ = Permission.objects.get_or_create(
        content_type=player_type, codename=CODENAME, defaults={"name": NAME}
    )
    group, _ = Group.objects.get_or_create(name=GROUP)
    group.permissions.add(permission)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0013_sign_up_address_confirmed"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    # Backwards leaves the group: staff may have been put in it since.
    operations = [migrations.RunPython(accountants_group_create, migrations.RunPython.noop)]
