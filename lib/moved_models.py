"""For migrations that move a model from one app to another without touching its table."""

from django.db import migrations


def content_types_follow(model_names: list[str], old_app: str, new_app: str):
    """Permissions (and the groups holding them) point at the model's content type: rename
    it rather than let a new one be made, so that every grant survives the move."""

    def relabel(apps, source: str, target: str) -> None:
        content_type = apps.get_model("contenttypes", "ContentType")
        for model in model_names:
            if not content_type.objects.filter(app_label=target, model=model).exists():
                content_type.objects.filter(app_label=source, model=model).update(app_label=target)

    return migrations.RunPython(
        lambda apps, schema_editor: relabel(apps, old_app, new_app),
        lambda apps, schema_editor: relabel(apps, new_app, old_app),
    )
