"""The run reducer's replayable log: commands as canonical JSON, and snapshots to compare.

Every command the reducer accepted can be written as one :class:`Entry` (its time and
the command as a JSON document). Because :func:`praxis.core.run.apply` is deterministic,
folding the entries of a run over an empty state with :func:`replay` rebuilds the same
state, and :func:`snapshot` renders a state as canonical JSON so that two states can be
compared byte for byte. This is what makes the pure core usable for simulation and
planning: record a history, change a command, replay, and compare.

Example::

    entries = [Entry(now, encode(command)) for now, command in accepted]
    rebuilt = replay(entries, {definition.digest: definition})
    assert snapshot(rebuilt) == snapshot(live)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from praxis.core import money, values
from praxis.core import run as core
from praxis.core.contract import Allowance
from praxis.core.definition import DEFAULT_LIMITS, Definition, Limits
from praxis.core.rejection import Rejection


@dataclass(frozen=True)
class Entry:
    """One accepted command and the time it was applied at."""

    now_ms: int
    command: dict[str, values.JsonValue]


def encode(command: core.Command) -> dict[str, values.JsonValue]:
    """A command as a JSON document (definitions enter by digest)."""
    kind = type(command).__name__
    if isinstance(command, core.Start):
        body = {"kind": kind, "run_id": command.run_id, "definition": command.definition.digest,
                "revision": command.revision}  # fmt: skip
        if command.deadline_ms:  # written only when set: older logs stay byte for byte
            body["deadline_ms"] = command.deadline_ms
        return body
    if isinstance(command, core.Revise):
        return {"kind": kind, "definition": command.definition.digest,
                "revision": command.revision, "sources": dict(command.source_results)}  # fmt: skip
    if isinstance(command, core.Resume):
        body = {"kind": kind, "reason": command.reason, "by": command.by,
                "deadline_ms": command.deadline_ms}  # fmt: skip
        if command.definition is not None:  # onto a head; a plain resume is written as before
            body["definition"] = command.definition.digest
            body["revision"] = command.revision
        return body
    plain: dict[str, Any] = {"kind": kind}
    for name, value in vars(command).items():
        plain[name] = _plain(value)
    return plain


def _plain(value: Any) -> values.JsonValue:
    if isinstance(value, core.Attempt):
        data = dict(vars(value))  # flat: no need for asdict's deep copy on the hot path
        data["status"] = value.status.value
        return data
    if isinstance(value, core.Effect):
        return value.value
    if isinstance(value, Allowance):
        return {
            "remaining": None if value.remaining is None else money.text(value.remaining),
            "deadline_ms": value.deadline_ms,
            "cap_remaining": None
            if value.cap_remaining is None
            else money.text(value.cap_remaining),
            "contract_reserved": money.text(value.contract_reserved),
            "cap_reserved": money.text(value.cap_reserved),
        }
    return value


def decode(document: Mapping[str, Any], definitions: Mapping[str, Definition]) -> core.Command:
    """The command of a JSON document written by :func:`encode`."""
    body = dict(document)
    kind = body.pop("kind")
    if kind == "Start":
        return core.Start(
            body["run_id"],
            definitions[body["definition"]],
            body["revision"],
            body.get("deadline_ms", 0),
        )
    if kind == "Revise":
        return core.Revise(definitions[body["definition"]], body["revision"], body["sources"])
    if kind == "Resume" and "definition" in body:
        body["definition"] = definitions[body["definition"]]
    if "attempt" in body:
        attempt = dict(body["attempt"])
        attempt["status"] = core.AttemptStatus(attempt["status"])
        body["attempt"] = core.Attempt(**attempt)
    if "effect" in body:
        body["effect"] = core.Effect(body["effect"])
    if body.get("allowance") is not None:
        found = body["allowance"]
        body["allowance"] = Allowance(
            None if found["remaining"] is None else Decimal(found["remaining"]),
            found["deadline_ms"],
            None if found["cap_remaining"] is None else Decimal(found["cap_remaining"]),
            Decimal(found.get("contract_reserved", "0")),
            Decimal(found.get("cap_reserved", "0")),
        )
    command: core.Command = getattr(core, kind)(**body)
    return command


def replay(
    entries: Iterable[Entry],
    definitions: Mapping[str, Definition],
    limits: Limits = DEFAULT_LIMITS,
) -> core.RunState:
    """Folds a run's entries over an empty state.

    Raises:
        ValueError: An entry is refused: the log is not one this reducer wrote.
    """
    state: core.RunState | None = None
    for entry in entries:
        outcome = core.apply(state, decode(entry.command, definitions), entry.now_ms, limits)
        if isinstance(outcome, Rejection):
            raise ValueError(f"entry refused on replay: {outcome.reason}")
        if not outcome.noop:
            state = outcome.state
    if state is None:
        raise ValueError("the log has no Start entry")
    return state


def snapshot(state: core.RunState) -> str:
    """The state as canonical JSON (every field, nodes in uid order)."""
    return values.canonical_json(
        {
            "run_id": state.run_id,
            "definition": state.definition.digest,
            "revision": state.revision,
            "status": state.status.value,
            "result_error": state.result_error,
            "result_reason": state.result_reason,
            "times": [state.created_at_ms, state.updated_at_ms, state.finished_at_ms],
            "deadline_ms": state.deadline_ms,
            "version": state.version,
            "nodes": {
                uid: {
                    **{k: v for k, v in vars(node).items() if k not in ("status", "arrays")},
                    "status": node.status.value,
                    "arrays": dict(node.arrays),
                }
                for uid, node in sorted(state.nodes.items())
            },
        }
    )
