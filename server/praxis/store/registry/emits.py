"""The events the registry emits, that other slices react to (``praxis.app.reactions``)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.engine import Connection

from praxis.core.registry import Head


@dataclass(frozen=True, eq=False, slots=True)
class HeadChanged:
    """A command is about to save a ref's new head (an activation), inside its
    transaction: a handler applies it to the ref's bound run; a ``Rollback`` it raises
    refuses the command."""

    connection: Connection
    head: Head
    now: int


@dataclass(frozen=True, slots=True)
class RegistryWritten:
    """A registry command or a new approval committed a write (proposals and approvals
    enter and leave the inbox); published after the commit, once per group commit."""
