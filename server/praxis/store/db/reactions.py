"""The one dispatcher of events between slices: which handlers react to which event.

A slice that others react to names each event it emits as a frozen dataclass in its
``emits.py`` (the runtime's ``RunSaved``, the registry's ``HeadChanged``, ...) and
publishes an instance here; it never calls another slice. The engine declares the whole
table, event type -> handlers in order, in one place (``praxis.app.reactions``), as
cosmicpython's ``bootstrap`` keys ``EVENT_HANDLERS`` by event type.

When a handler runs is the emitter's, and the event's docstring says it:

* :meth:`Reactions.publish` runs the handlers now, inside the emitting command's
  transaction when it has one (the event then carries its ``connection``): a
  :class:`~praxis.store.db.database.Rollback` a handler raises refuses the command;
* :meth:`Reactions.after_commit` runs them once the transaction has committed, once per
  equal event however many commands of a group commit emitted it (and never when it
  rolled back);
* :meth:`Reactions.gather` runs them now and returns what each returned (a
  before-commit event's handlers return what runs once the COMMIT ended).

A dispatcher without a table (a store built alone, in a test) runs nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Connection

from praxis.store.db.database import Database

Handler = Callable[[Any], object]
"""A reaction: called with the event (an instance of the type it is wired to)."""


class Reactions:
    """Event type -> handlers in order: the engine's table, and its dispatch."""

    def __init__(self, table: Mapping[type, Sequence[Handler]] | None = None) -> None:
        self._table: dict[type, tuple[Handler, ...]] = {}
        if table:
            self.wire(table)

    def wire(self, table: Mapping[type, Sequence[Handler]]) -> None:
        """Sets the handlers of each event type of ``table`` (the table replaces what
        an earlier call wired for the same types; other types keep theirs)."""
        for event_type, handlers in table.items():
            self._table[event_type] = tuple(handlers)

    @property
    def table(self) -> Mapping[type, tuple[Handler, ...]]:
        """What is wired: event type -> handlers in order."""
        return dict(self._table)

    def wired(self, event_type: type) -> bool:
        """Whether any handler reacts to ``event_type`` (an emitter skips building an
        event nobody reads)."""
        return event_type in self._table

    def publish(self, event: object) -> None:
        """Runs the handlers of ``event``'s type now, in order; what one raises (a
        ``Rollback`` refusing the command) stops the others and reaches the emitter."""
        for handler in self._table.get(type(event), ()):
            handler(event)

    def gather(self, event: object) -> list[object]:
        """Runs the handlers of ``event``'s type now, in order; what each returned."""
        return [handler(event) for handler in self._table.get(type(event), ())]

    def after_commit(self, connection: Connection, event: object) -> None:
        """Publishes ``event`` once the write transaction of ``connection`` committed;
        an equal event already pending is not added again (the commands of one group
        commit share it)."""
        if type(event) in self._table:
            Database.after_commit(connection, _Later(self, event), once=True)


@dataclass(frozen=True)
class _Later:
    """An event to publish after a commit: equal for equal events, so it is pending once."""

    reactions: Reactions
    event: object

    def __call__(self) -> None:
        self.reactions.publish(self.event)
