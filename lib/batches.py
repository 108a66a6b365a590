"""Deleting many rows without holding a long lock: a few hundred at a time."""

from django.db.models import QuerySet


def delete_in_batches(rows: QuerySet, batch: int) -> int:
    """Delete the rows of `rows` in batches of `batch`, oldest (lowest pk) first, each
    DELETE a statement of its own; how many were deleted. Each batch starts past the last
    pk of the one before, so rows the query keeps are not read again."""
    deleted = 0
    after = 0
    while True:
        pks = list(rows.filter(pk__gt=after).order_by("pk").values_list("pk", flat=True)[:batch])
        if not pks:
            return deleted
        # The query again: a row is deleted only if it still qualifies when deleted.
        count, _ = rows.filter(pk__in=pks).delete()
        deleted += count
        after = pks[-1]
        if len(pks) < batch:
            return deleted
