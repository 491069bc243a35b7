"""One shape for every change to a table (issue #12, "The house").

A service body is the poker and nothing else:

    def seat_sit_out(*, table_id: int, player: Player) -> TableResult:
        with table_change(table_id) as change:
            seat = own_seat(change, player)
            seat.sitting_out = True
            seat.save(update_fields=["sitting_out"])
            change.outbox.seats_changed = True
        return change.result

`table_change` opens the transaction (durable: a service is never called inside a caller's
transaction, so its commit is the commit and its broadcast goes out with it), locks the table
row, and collects the frames in `change.outbox`. On leaving the block it answers: applied
(the frames registered to go out after commit), or, when the body raised
`change.refuse(...)` or `change.stale(...)`, that answer with everything the body wrote
rolled back: a refused change writes nothing. `change.skip(...)` is the one way to stop
early and keep what was written, and send the frames collected (hand_start clearing the
schedule of a hand that cannot be dealt, and saying so). A table that does not exist is
answered `not_found` (or `busy` with `skip_locked`) at the body's first touch of
`change.table`, `change.outbox` or `change.hand`, by any refusal, or when the body ends;
whatever it did is rolled back.

Lock order (every transaction that changes the room takes its row locks in this order, so two
never wait for each other in a circle):

1. the table's row (`lock_table`: every change to a table holds it first);
2. players' rows, by primary key (`lock_players`; a wallet move inside a table change locks
   its player after the table, and a change that may move several players' money or
   protections locks them all at once first, ascending: `hand_absentees_lock` in flow.py).

Seats, hands, events and waiting-list rows of a table are written only under its table row
lock and need no lock of their own.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from types import TracebackType
from typing import Any, TypeVar

from django.db import connection, transaction
from django.db.models import Model
from django.db.models.sql import Query

from accounts.models import Player
from tables.models import Hand, Seat, Table
from tables.services.outbox import Outbox
from tables.services.results import Refusal, TableResult, refused, stale

LOCK_ORDER = ("table row", "player rows by primary key")

# The act path's reads as fixed SQL (Model.objects.raw): building the same ORM query anew for
# every action cost about a third of an act's CPU (docs/performance.md, "Live tables").
_LOCK_TABLE_SQL = f"SELECT * FROM {Table._meta.db_table} WHERE id = %s FOR UPDATE"
_LOCK_TABLE_SKIP_LOCKED_SQL = _LOCK_TABLE_SQL + " SKIP LOCKED"
_CURRENT_HAND_SQL = (
    f"SELECT * FROM {Hand._meta.db_table} WHERE table_id = %s AND ended_at IS NULL"
    " ORDER BY id DESC LIMIT 1"
)
_SEATS_SQL = f"SELECT * FROM {Seat._meta.db_table} WHERE table_id = %s"


def lock_table(table_id: int, *, skip_locked: bool = False) -> Table | None:
    """Lock the table's row for this transaction (first of the lock order) and return it;
    None if there is no such table, or (`skip_locked`) another holds it."""
    if skip_locked and not connection.features.has_select_for_update_skip_locked:
        skip_locked = False  # SQLite: one writer at a time anyway
    sql = _LOCK_TABLE_SKIP_LOCKED_SQL if skip_locked else _LOCK_TABLE_SQL
    if not connection.features.has_select_for_update:
        sql = sql.split(" FOR UPDATE")[0]  # SQLite locks the whole database on write
    return next(iter(Table.objects.raw(sql, [table_id])), None)


def lock_players(player_ids: Iterable[int]) -> list[int]:
    """Lock players' rows in the lock order (ascending primary key), after the table's; the
    wallet moves that follow in the transaction find them held. Returns the ids locked."""
    ids = sorted(set(player_ids))
    if not ids:
        return []
    query = Player.objects.filter(pk__in=ids).order_by("pk").select_for_update()
    return list(query.values_list("pk", flat=True))


def current_hand(table: Table) -> Hand | None:
    return next(iter(Hand.objects.raw(_CURRENT_HAND_SQL, [table.pk])), None)


def seats_by_number(table: Table) -> dict[int, Seat]:
    """The table's seats by number, without their players: a turn needs only the seat's own
    columns (player id, presence, stack), and joining the player's forty columns made
    this the act path's dearest query (docs/performance.md)."""
    return {seat.number: seat for seat in Seat.objects.raw(_SEATS_SQL, [table.pk])}


def lock_table_read(
    table_id: int, *, skip_locked: bool = False, seats: bool = False
) -> tuple[Table | None, Hand | None, dict[int, Seat] | None]:
    """`lock_table`, then the current hand (`current_hand`) and, with `seats`, the seats
    (`seats_by_number`): the same statements, in this order, in one trip to PostgreSQL
    (psycopg's pipeline mode: the transaction's BEGIN and the three statements are sent
    together and answered together). The server runs them one after the other, so the hand
    and the seats are read after the lock is held, each with its own snapshot, exactly as
    when sent one by one (READ COMMITTED); only the waits between them are gone
    (docs/performance.md, "Issue #15: the act path, profiled"). Elsewhere (SQLite) they are
    sent one by one. (None, None, None) when there is no such table or, with `skip_locked`,
    another holds it."""
    if not _pipelines():
        table = lock_table(table_id, skip_locked=skip_locked)
        if table is None:
            return None, None, None
        return table, current_hand(table), seats_by_number(table) if seats else None
    sql = _LOCK_TABLE_SKIP_LOCKED_SQL if skip_locked else _LOCK_TABLE_SQL
    connection.ensure_connection()
    cursors = [connection.cursor() for _ in range(3 if seats else 2)]
    try:
        with connection.wrap_database_errors, connection.connection.pipeline():
            cursors[0].execute(sql, [table_id])
            cursors[1].execute(_CURRENT_HAND_SQL, [table_id])
            if seats:
                cursors[2].execute(_SEATS_SQL, [table_id])
            tables = _instances(Table, cursors[0])
            hands = _instances(Hand, cursors[1])
            seat_rows = _instances(Seat, cursors[2]) if seats else None
    finally:
        for cursor in cursors:
            cursor.close()
    if not tables:
        return None, None, None
    return (
        tables[0],
        hands[0] if hands else None,
        None if seat_rows is None else {seat.number: seat for seat in seat_rows},
    )


def _pipelines() -> bool:
    """Whether this connection can send statements in pipeline mode (PostgreSQL, libpq 14+)."""
    if connection.vendor != "postgresql":
        return False
    import psycopg

    return bool(psycopg.Pipeline.is_supported())


_M = TypeVar("_M", bound=Model)
# (model, columns of its `SELECT *`) -> each model field's position in the row, in the
# model's order (Model.from_db's), and the columns to convert (what Model.objects.raw does).
_ROW_PLANS: dict[tuple[type[Model], tuple[str, ...]], tuple[list[str], list[int], list[Any]]] = {}


def _instances(model: type[_M], cursor: Any) -> list[_M]:
    """The model instances of a `SELECT * FROM <model's table>` cursor's rows, converted
    and built as `Model.objects.raw` builds them."""
    fetched = cursor.fetchall()  # first: in pipeline mode, this waits for the result
    columns = tuple(column.name for column in cursor.description)
    plan = _ROW_PLANS.get((model, columns))
    if plan is None:
        fields = [field for field in model._meta.concrete_fields if field.column in columns]
        table = model._meta.db_table
        plan = (
            [field.attname for field in fields],
            [columns.index(field.column) for field in fields],
            [field.get_col(table) for field in fields],
        )
        _ROW_PLANS[(model, columns)] = plan
    names, positions, cols = plan
    rows: Iterable[Any] = [[row[at] for at in positions] for row in fetched]
    compiler = connection.ops.compiler("SQLCompiler")(Query(model), connection, connection.alias)
    converters = compiler.get_converters(cols)
    if converters:
        rows = compiler.apply_converters(rows, converters)
    return [model.from_db(connection.alias, names, list(row)) for row in rows]


class Refused(Exception):
    """Raised by a change's body to answer without applying: the change is rolled back."""

    def __init__(self, result: TableResult) -> None:
        super().__init__(result.error)
        self.result = result


class Skipped(Exception):
    """Raised by a change's body to stop and keep what it wrote (`TableChange.skip`)."""

    def __init__(self, result: TableResult) -> None:
        super().__init__(result.error)
        self.result = result


class TableChange:
    """The locked table, its outbox and its current hand, for one change (`table_change`)."""

    def __init__(
        self, table_id: int, *, skip_locked: bool = False, read_hand: bool = False
    ) -> None:
        self.table_id = table_id
        self.skip_locked = skip_locked
        self.read_hand = read_hand
        self._atomic = transaction.atomic(durable=True)
        self._table: Table | None = None
        self._outbox: Outbox | None = None
        self._hand: Hand | None = None
        self._hand_read = False
        self._seats: dict[int, Seat] | None = None
        self._result: TableResult | None = None

    # --- what the body uses -----------------------------------------------------------------

    @property
    def table(self) -> Table:
        if self._table is None:
            raise Refused(self._missing())
        return self._table

    @property
    def outbox(self) -> Outbox:
        if self._outbox is None:
            self._outbox = Outbox(self.table)
        return self._outbox

    @property
    def hand(self) -> Hand | None:
        """The hand in play when the table was locked (read once, when first asked); the
        hand the answer names. A body that deals or works on another hand sets it."""
        if not self._hand_read:
            self._hand = current_hand(self.table)
            self._hand_read = True
        return self._hand

    @hand.setter
    def hand(self, hand: Hand | None) -> None:
        self._hand = hand
        self._hand_read = True

    @property
    def seats(self) -> dict[int, Seat]:
        """The table's seats by number (`seats_by_number`), read once, when first asked (with
        `read_hand`, together with the lock)."""
        if self._seats is None:
            self._seats = seats_by_number(self.table)
        return self._seats

    def refuse(self, error: Refusal, message: str, *, hand: Hand | None = None) -> Refused:
        """`raise change.refuse(Refusal.X, "...")`: answered refused, nothing written."""
        if self._table is None:
            return Refused(self._missing())
        return Refused(
            refused(
                self.table_id,
                error,
                message,
                hand_id=None if hand is None else hand.pk,
                seq=None if hand is None else hand.seq,
            )
        )

    def stale(self, hand: Hand | None) -> Refused:
        """`raise change.stale(hand)`: the call is out of date (the hand moved on)."""
        if self._table is None:
            return Refused(self._missing())
        return Refused(
            stale(
                self.table_id,
                hand_id=None if hand is None else hand.pk,
                seq=None if hand is None else hand.seq,
            )
        )

    def skip(self, error: Refusal, message: str) -> Skipped:
        """`raise change.skip(Refusal.X, "...")`: not applied, but what the body wrote stands
        and the frames it collected are sent after the commit (status "skipped"; hand_start's
        cleared schedule and its next_hand frame)."""
        return Skipped(TableResult("skipped", self.table_id, error, message))

    @property
    def result(self) -> TableResult:
        """The answer, once the `with` block is left."""
        if self._result is None:
            raise RuntimeError("a table change is answered when its block ends")
        return self._result

    # --- the shape --------------------------------------------------------------------------

    def __enter__(self) -> TableChange:
        self._atomic.__enter__()
        try:
            if self.read_hand:
                self._table, self._hand, self._seats = lock_table_read(
                    self.table_id, skip_locked=self.skip_locked, seats=True
                )
                # No table: `hand` and `seats` answer not_found, as without read_hand.
                self._hand_read = self._table is not None
            else:
                self._table = lock_table(self.table_id, skip_locked=self.skip_locked)
        except BaseException as error:
            self._atomic.__exit__(type(error), error, error.__traceback__)
            raise
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool:
        if exc is None:
            if self._table is None:
                transaction.set_rollback(True)
                self._atomic.__exit__(None, None, None)
                self._result = self._missing()
                return False
            try:
                self._result = self.outbox.result(hand=self.hand)
            except BaseException as error:
                self._atomic.__exit__(type(error), error, error.__traceback__)
                raise
            self._atomic.__exit__(None, None, None)
            return False
        if isinstance(exc, Skipped) and self._table is not None:
            result = exc.result
            if self._outbox is not None:  # what the body told the table goes out on commit
                sent = self._outbox.result(status="skipped", message=result.message)
                result = replace(result, frames=sent.frames)
            self._atomic.__exit__(None, None, None)
            self._result = result
            return True
        self._atomic.__exit__(exc_type, exc, tb)  # rolled back
        if isinstance(exc, Refused | Skipped):
            self._result = exc.result if self._table is not None else self._missing()
            return True
        return False

    def _missing(self) -> TableResult:
        if self.skip_locked:
            return refused(
                self.table_id, Refusal.BUSY, "The table is busy; the sweep will come back."
            )
        return refused(self.table_id, Refusal.NOT_FOUND, "No such table.")


def table_change(
    table_id: int, *, skip_locked: bool = False, read_hand: bool = False
) -> TableChange:
    """`with table_change(table_id) as change:` the one shape of a change to a table (see the
    module's docstring); `skip_locked`: leave a table another transaction holds (`busy`);
    `read_hand`: the body plays the current hand, so `change.hand` and `change.seats` are
    read with the lock, in one trip to the database (`lock_table_read`)."""
    return TableChange(table_id, skip_locked=skip_locked, read_hand=read_hand)
