"""Small queries of a fixed shape, compiled to SQL once per process (issue 28).

Django compiles a queryset to SQL every time it runs: for the turn page's two queries (the
user; the seats with their game and users) that compilation was about a fifth of the page's
CPU, for the same SQL each time with one number changed. `PreparedQuery` builds its queryset
once per database alias with a stand-in value, compiles it, and then runs that SQL with the
value of each call, turning the rows into model instances as Django's own iterable does
(`ModelIterable`: the same converters, `from_db` and `select_related` populators), on the
calling thread's connection. The query is sent as before, one execute on the connection's
cursor: transactions, query counting and the retry after a dropped connection see it as any
other.

Only for a queryset whose one parameter is the value given (checked when it is compiled:
otherwise each call falls back on the queryset itself), with no prefetch, no annotations
over other rows and no extra parameters that could change between calls.
"""

import copy
import threading
from collections.abc import Callable

from django.db import connections, router
from django.db.models import Model, QuerySet
from django.db.models.query import ModelIterable, get_related_populators

# A value no real row is looked up by, to find the parameter's place in the compiled SQL.
_STAND_IN = -792_164_337


class PreparedQuery:
    """`PreparedQuery(lambda value: Model.objects.filter(field=value)..., field)`: calling
    it with a value gives `list(queryset(value))`, compiled once per database. `field` is
    a field of the queryset's model."""

    def __init__(self, queryset: Callable[[object], QuerySet], field) -> None:
        self._queryset = queryset
        self._field = field  # the model field the value is compared with (for its type)
        self._compiled: dict[str, tuple | None] = {}
        self._lock = threading.Lock()

    def __call__(self, value) -> list[Model]:
        # The database a queryset of the model reads from (QuerySet.db, without hints), found
        # without building the queryset: its filter() costs as much as a good part of the rest.
        db = router.db_for_read(self._field.model)
        compiled = self._compiled.get(db, False)
        if compiled is False:
            compiled = self._compile(db)
        if compiled is None:
            return list(self._queryset(value).using(db))
        compiler, sql, params, position = compiled
        connection = connections[db]
        params = list(params)
        params[position] = self._field.get_db_prep_value(value, connection, prepared=False)
        runner = copy.copy(compiler)  # its select and klass_info are read, never changed
        runner.connection = connection  # the calling thread's
        runner.as_sql = lambda *args, **kwargs: (sql, tuple(params))
        return list(_instances(runner, db))

    def _compile(self, db: str):
        with self._lock:
            if db in self._compiled:
                return self._compiled[db]
            queryset = self._queryset(_STAND_IN).using(db)
            compiled = None
            if (
                queryset.model is self._field.model
                and not queryset._prefetch_related_lookups
                and queryset._iterable_class is ModelIterable
            ):
                compiler = queryset.query.get_compiler(using=db)
                sql, params = compiler.as_sql()
                places = [i for i, param in enumerate(params) if param == _STAND_IN]
                if len(places) == 1 and len(params) == 1:
                    compiled = (compiler, sql, tuple(params), places[0])
            self._compiled[db] = compiled
            return compiled


def _instances(compiler, db: str):
    """Django's ModelIterable.__iter__, from a compiler already set up (a fresh queryset has
    no known related objects)."""
    results = compiler.execute_sql()
    select, klass_info, annotation_col_map = (
        compiler.select,
        compiler.klass_info,
        compiler.annotation_col_map,
    )
    model_cls = klass_info["model"]
    select_fields = klass_info["select_fields"]
    start, end = select_fields[0], select_fields[-1] + 1
    init_list = [f[0].target.attname for f in select[start:end]]
    related_populators = get_related_populators(klass_info, select, db)
    for row in compiler.results_iter(results):
        obj = model_cls.from_db(db, init_list, row[start:end])
        for populator in related_populators:
            populator.populate(row, obj)
        if annotation_col_map:
            for name, position in annotation_col_map.items():
                setattr(obj, name, row[position])
        yield obj
