"""A move's own reads and writes, without building their SQL every time (issue 31).

A move reads its seats with their players, inserts its ``Move`` and updates its match
and the seats whose decision or clock changed (and locks and reads its match:
``games/locks.py``): the same few rows and columns every time. Through the ORM each of these built its SQL again, and
that building cost more CPU than anything else in the move's service (measured on
PostgreSQL, CPU per call: the match locked and read 1.46 ms by the ORM, 0.80 here; its
seats and players 1.85, 1.13; the match's and a seat's updates 1.23, 0.69). Here the
SQL of each is made once, from the models' own metadata, and rows are read through
Django's ``raw`` (each field's own conversion from the database) and written with each
field's own ``pre_save`` (``auto_now``) and ``get_db_prep_save``, as ``Model.save`` does:
the rows are the same. No signals are sent: none of these models has a receiver
(``tests/games/test_rows.py`` keeps it so). Exactly-once stays the database's: the
unique constraints refuse a second move at a ply, or a second use of an action id,
with the same ``IntegrityError``; the lock is the same ``SELECT ... FOR UPDATE``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from django.db import connection, models

from accounts.models import User
from games.models import Seat


def seats_with_players(match_id: int) -> list[Seat]:
    """The match's seats in order, each with its player loaded (as ``select_related("user")``)."""
    seats = list(Seat.objects.raw(_seats_sql(), [match_id]))
    ids = sorted({seat.user_id for seat in seats if seat.user_id is not None})
    if ids:
        players = {user.pk: user for user in User.objects.raw(_users_sql(len(ids)), ids)}
        for seat in seats:
            if seat.user_id is not None:
                seat.user = players[seat.user_id]
    return seats


def insert(instance: models.Model) -> None:
    """Insert ``instance`` (its primary key left to the database, and not read back)."""
    fields = tuple(field for field in instance._meta.concrete_fields if not field.primary_key)
    values = [field.get_db_prep_save(field.pre_save(instance, True), connection) for field in fields]
    with connection.cursor() as cursor:
        cursor.execute(_insert_sql(type(instance), fields), values)


def update(instance: models.Model, names: Sequence[str]) -> int:
    """Save the fields ``names`` of ``instance``'s row; how many rows it changed (0 or 1)."""
    fields = tuple(instance._meta.get_field(name) for name in names)
    values = [field.get_db_prep_save(field.pre_save(instance, False), connection) for field in fields]  # type: ignore[union-attr]
    with connection.cursor() as cursor:
        cursor.execute(_update_sql(type(instance), fields), [*values, instance.pk])
        return int(cursor.rowcount)


def _quote(name: str) -> str:
    return connection.ops.quote_name(name)


@functools.cache
def _seats_sql() -> str:
    table = _quote(Seat._meta.db_table)
    return f"SELECT * FROM {table} WHERE {_quote('match_id')} = %s ORDER BY {_quote('index')}"


@functools.cache
def _users_sql(count: int) -> str:
    marks = ", ".join(["%s"] * count)
    return f"SELECT * FROM {_quote(User._meta.db_table)} WHERE {_quote('id')} IN ({marks})"


@functools.cache
def _insert_sql(model: type[models.Model], fields: tuple[models.Field, ...]) -> str:
    columns = ", ".join(_quote(field.column) for field in fields)
    marks = ", ".join(["%s"] * len(fields))
    return f"INSERT INTO {_quote(model._meta.db_table)} ({columns}) VALUES ({marks})"


@functools.cache
def _update_sql(model: type[models.Model], fields: tuple[models.Field, ...]) -> str:
    assignments = ", ".join(f"{_quote(field.column)} = %s" for field in fields)
    key = _quote(model._meta.pk.column)
    return f"UPDATE {_quote(model._meta.db_table)} SET {assignments} WHERE {key} = %s"
