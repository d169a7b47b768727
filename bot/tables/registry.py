"""The live tables: lookup, one lock per table, the commit that saves (or rolls back) and tells.

Every change ends in ``commit``: under the table's lock the changed table gets a new version
and is saved; only then are the listeners told, with an immutable snapshot. If the save fails,
the table goes back to what was last saved, so no acknowledged change is ever lost and no
unsaved one is ever shown.

Each write names the version it was made from, so the database refuses it when another
process wrote the table meanwhile; this process then lets the table go (it is not its own).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection
from contextlib import AbstractAsyncContextManager
from typing import Protocol

from bot.storage import MatchRecord, StaleTableError, StorageError, TableRecord

from .locks import KeyedLocks
from .records import match_record
from .refusals import TableError
from .snapshot import TableSnapshot, snapshot_of
from .table import Status, Table

log = logging.getLogger(__name__)

Listener = Callable[[TableSnapshot], None]
ENDED = (Status.FINISHED, Status.CANCELLED)


class TableStore(Protocol):
    """What the tables need from storage (bot.storage.Storage provides it)."""

    async def save_table(self, record: TableRecord, seen: int | None = None) -> None: ...
    async def delete_table(self, table_id: str, seen: int | None = None) -> bool: ...
    async def load_tables(
        self, shard_ids: Collection[int] | None = None, shard_count: int | None = None
    ) -> list[TableRecord]: ...
    async def touch_table(self, record: TableRecord) -> bool: ...
    async def record_match(
        self, record: MatchRecord, table_id: str | None = None, *, table_version: int | None = None
    ) -> bool: ...


class TableRegistry:
    """Owns the live ``Table`` objects; nothing outside ``bot.tables`` ever sees one."""

    def __init__(self, storage: TableStore | None, clock: Callable[[], float]) -> None:
        self.storage = storage
        self.clock = clock
        self.tables: dict[str, Table] = {}
        # Ended games kept (and stored) until their last table message is shown: a crash
        # between the end and that edit still shows the end after the restart.
        self.ended: dict[str, Table] = {}
        self.keep_ended = False  # set by whoever shows ended tables (and then forgets them)
        self.locks: KeyedLocks[str] = KeyedLocks()
        self._saved: dict[str, str] = {}
        # Tables as restored at start, until their first change: their pictures can wait.
        self.restored: dict[str, int] = {}
        self._versions: dict[str, int] = {}  # the version each table was last saved at
        self._listeners: list[Listener] = []

    # ----- listeners -----

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener`` with the snapshot of every committed change (under the lock)."""
        self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def _notify(self, snapshot: TableSnapshot) -> None:
        for listener in self._listeners:
            try:
                listener(snapshot)
            except Exception:
                log.exception("table listener failed for %s", snapshot.table_id)

    # ----- lookup -----

    def hold(self, table_id: str) -> AbstractAsyncContextManager[None]:
        """The table's lock (it lives only while someone holds or awaits it)."""
        return self.locks.hold(table_id)

    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise TableError("gone")
        return table

    def in_channel(self, channel_id: int) -> list[Table]:
        """Tables whose game runs in, or whose lobby was posted in, this channel."""
        return [
            t
            for t in self.tables.values()
            if t.game_channel_id == channel_id
            or (t.thread_id is None and t.channel_id == channel_id)
        ]

    def find_for(self, channel_id: int, user_id: int) -> Table | None:
        """The table a user most likely means in this channel (their own seat first)."""
        here = [t for t in self.tables.values() if channel_id in (t.game_channel_id, t.channel_id)]
        mine = [t for t in here if t.seat_of(user_id) is not None]
        for group in (mine, here):
            exact = [t for t in group if t.game_channel_id == channel_id]
            if exact:
                return exact[-1]
            if group:
                return group[-1]
        return None

    # ----- saving -----

    def _record(self, table: Table) -> TableRecord:
        return TableRecord(
            table_id=table.table_id,
            guild_id=table.guild_id,
            channel_id=table.game_channel_id,
            version=table.version,
            state=table.to_record(),
            updated_at=self.clock(),
        )

    async def restore(
        self, shard_ids: Collection[int] | None = None, shard_count: int | None = None
    ) -> list[TableSnapshot]:
        """Load the saved tables and tell the listeners about each (at start): every table, or
        with shard ids and count only those of guilds on these shards (this process's own)."""
        if self.storage is None:
            return []
        restored = []
        for record in await self.storage.load_tables(shard_ids, shard_count):
            try:
                table = Table.from_record(record.state)
            except (ValueError, KeyError, TypeError):
                log.exception("could not restore table %s", record.table_id)
                continue
            if table.status in ENDED:
                self.ended[table.table_id] = table
                await self._record_ended(table)
            else:
                self.tables[table.table_id] = table
            self._saved[table.table_id] = record.state
            self.restored[table.table_id] = table.version
            self._versions[table.table_id] = record.version
            snapshot = snapshot_of(table)
            restored.append(snapshot)
            self._notify(snapshot)
        return restored

    def _rollback(self, table_id: str) -> None:
        saved = self._saved.get(table_id)
        if saved is None:
            self.tables.pop(table_id, None)
        else:
            self.tables[table_id] = Table.from_record(saved)

    def _let_go(self, table_id: str) -> None:
        """Forget a table another process wrote: its timers find it gone and stop."""
        self.tables.pop(table_id, None)
        self.ended.pop(table_id, None)
        self._saved.pop(table_id, None)
        self._versions.pop(table_id, None)

    async def commit(self, table: Table) -> TableSnapshot:
        """Save a changed table under a new version (or record its finished match), then tell."""
        seen = self._versions.get(table.table_id, 0)
        table.bump()
        table.refresh_deadline(self.clock())
        self.tables[table.table_id] = table
        self.restored.pop(table.table_id, None)
        keep = self.keep_ended and table.started_at is not None
        try:
            if keep and table.status in ENDED:
                # Saved as ended first: once this returns, a restart shows the end (and
                # records the match if the crash came before that).
                record_ = self._record(table)
                if self.storage is not None:
                    await self.storage.save_table(record_, seen)
                self._saved[table.table_id] = record_.state
                self._versions[table.table_id] = record_.version
            elif table.status is Status.FINISHED and table.match is not None:
                if self.storage is not None:
                    record = match_record(table, self.clock())
                    await self.storage.record_match(record, table.table_id, table_version=seen)
                table.recorded = True
            elif table.status is Status.CANCELLED:
                if self.storage is not None:
                    await self.storage.delete_table(table.table_id, seen)
            else:
                record_ = self._record(table)
                if self.storage is not None:
                    await self.storage.save_table(record_, seen)
                self._saved[table.table_id] = record_.state
                self._versions[table.table_id] = record_.version
        except StaleTableError as error:
            # Another process wrote this table since this one last saved it: this change is
            # refused whole, and the table is no longer driven from here.
            log.warning("table %s changed elsewhere; dropped here: %s", table.table_id, error)
            self._let_go(table.table_id)
            raise TableError("gone") from None
        except StorageError:
            log.exception("could not save table %s", table.table_id)
            self._rollback(table.table_id)
            raise TableError("save_failed") from None
        if table.status in ENDED:
            if keep:
                self.tables.pop(table.table_id, None)
                self.ended[table.table_id] = table
                await self._record_ended(table)
            else:
                self._let_go(table.table_id)
        snapshot = snapshot_of(table)
        self._notify(snapshot)
        return snapshot

    async def _record_ended(self, table: Table) -> None:
        """Record a finished match kept as ended (a replay is ignored by its match id); a
        failure is retried when the table is forgotten, or at the next start."""
        if table.recorded or table.status is not Status.FINISHED or table.match is None:
            return
        if self.storage is not None:
            try:
                await self.storage.record_match(match_record(table, self.clock()))
            except StorageError:
                log.warning("could not record the match of table %s yet", table.table_id)
                return
        table.recorded = True

    async def forget_ended(self, table_id: str) -> bool:
        """Drop an ended table whose end has been shown (and its stored copy)."""
        async with self.hold(table_id):
            table = self.ended.get(table_id)
            if table is None:
                return False
            await self._record_ended(table)
            if table.status is Status.FINISHED and not table.recorded:
                return False  # kept until its match is recorded
            if self.storage is not None:
                try:
                    await self.storage.delete_table(table_id, self._versions.get(table_id))
                except StaleTableError as error:
                    log.warning("table %s changed elsewhere; dropped here: %s", table_id, error)
                except StorageError:
                    log.warning("could not remove the ended table %s yet", table_id)
                    return False
            self._let_go(table_id)
            return True

    async def drop(self, table_id: str) -> TableSnapshot | None:
        """Close a table whose channel is gone: unrecorded, unsaved, its players free again.
        Listeners hear of it as cancelled (timers stop); None if it was not here."""
        async with self.hold(table_id):
            table = self.tables.get(table_id) or self.ended.get(table_id)
            self._let_go(table_id)
            if table is None:
                return None
            if self.storage is not None:
                try:
                    await self.storage.delete_table(table_id)
                except StorageError:
                    log.warning("could not remove table %s, whose channel is gone", table_id)
            if table.status is not Status.FINISHED:
                table.status = Status.CANCELLED
            table.bump()
            snapshot = snapshot_of(table)
            self._notify(snapshot)
            return snapshot

    async def save_messages(self, table_id: str, change: Callable[[Table], None]) -> bool:
        """Change a table's message bookkeeping and save it under the table's lock (same
        version: open hands stay valid); False when the table is gone or the save failed."""
        async with self.hold(table_id):
            live = self.tables.get(table_id) or self.ended.get(table_id)
            if live is None:
                return False
            before = _messages_of(live)
            change(live)
            if _messages_of(live) == before:
                return True
            record = self._record(live)
            if self.storage is not None:
                try:
                    await self.storage.touch_table(record)
                except StaleTableError as error:
                    log.warning("table %s changed elsewhere; dropped here: %s", table_id, error)
                    self._let_go(table_id)
                    return False
                except StorageError:
                    log.warning("could not save the message ids of table %s", table_id)
                    _restore_messages(live, before)
                    return False
            self._saved[table_id] = record.state
            return True

    async def save_message_id(
        self, table_id: str, *, lobby: int | None = None, table: int | None = None
    ) -> bool:
        """Remember a posted message's id under the table's lock (same version: open hands stay
        valid); False when the table is gone or the save failed."""

        def change(live: Table) -> None:
            if lobby is not None:
                live.lobby_message_id = lobby
            if table is not None:
                live.table_message_id = table

        return await self.save_messages(table_id, change)


_Messages = tuple[int | None, int | None, str | None, tuple[int, ...], int | None]


def _messages_of(table: Table) -> _Messages:
    return (
        table.lobby_message_id,
        table.table_message_id,
        table.post_nonce,
        tuple(table.old_messages),
        table.ping_message_id,
    )


def _restore_messages(table: Table, saved: _Messages) -> None:
    lobby, message, nonce, old, ping = saved
    table.lobby_message_id, table.table_message_id, table.post_nonce = lobby, message, nonce
    table.old_messages, table.ping_message_id = list(old), ping
