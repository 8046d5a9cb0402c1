"""The engine's one reaction table (``praxis.app.reactions``) and its dispatcher
(``praxis.store.db.reactions``): every event a slice emits is a type with its emitter
and at least one handler in the table, every handler takes its event, no slice keeps a
hook list of its own, and the dispatcher runs handlers in order, now or once after a
commit (never after a rollback)."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import types
import typing
from collections.abc import Iterator
from pathlib import Path

import pytest

from praxis.app import Engine, Settings, reactions
from praxis.clock import TestClock
from praxis.core.rejection import precondition
from praxis.store.db.database import Rollback
from praxis.store.db.reactions import Reactions
from tests.support.harness import authority
from tests.support.paths import ROOT

SERVER = ROOT / "server" / "praxis"
STORE = SERVER / "store"


def _emits_modules() -> list[Path]:
    return sorted(STORE.glob("*/emits.py"))


def _event_types() -> dict[type, Path]:
    """Every event a slice declares (a dataclass of a ``store/<slice>/emits.py``), with
    its slice's folder."""
    found: dict[type, Path] = {}
    for path in _emits_modules():
        dotted = ".".join(path.relative_to(ROOT / "server").with_suffix("").parts)
        module = importlib.import_module(dotted)
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and value.__module__ == dotted
                and dataclasses.is_dataclass(value)
            ):
                found[value] = path.parent
    return found


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    path = tmp_path_factory.mktemp("reactions") / "praxis.db"
    built = Engine(
        Settings(
            database_url=f"sqlite:///{path}",
            authority=authority(),
            clock=TestClock(1_800_000_000_000),
            recover=False,
        )
    )
    try:
        yield built
    finally:
        built.close()


def test_every_event_type_is_a_row_with_handlers(engine: Engine) -> None:
    """The table's keys are exactly the events the slices declare, each with a handler,
    and it is what the engine's dispatcher runs."""
    events = _event_types()
    assert len(events) >= 15  # the scan sees the slices' events
    table = reactions(engine)
    assert set(table) == set(events)
    assert all(table[event_type] for event_type in table)
    assert engine.reactions.table == table


def test_every_event_type_has_its_emitter() -> None:
    """Each event is built (published) by a module of the slice that declares it, outside
    its emits.py: the slice emits it, nobody else does."""
    built: dict[str, set[Path]] = {}
    for path in SERVER.rglob("*.py"):
        if path.name == "emits.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                built.setdefault(name, set()).add(path)
    for event_type, folder in _event_types().items():
        emitters = built.get(event_type.__name__, set())
        assert emitters, f"{event_type.__name__} is never published"
        assert all(path.is_relative_to(folder) for path in emitters), (event_type, emitters)


def test_every_handler_takes_its_event(engine: Engine) -> None:
    """A handler's first parameter is annotated with the event type it is wired to (or a
    union holding it): a row cannot wire a handler to an event it does not read."""
    for event_type, handlers in reactions(engine).items():
        for handler in handlers:
            hints = typing.get_type_hints(handler)
            (first, *_rest) = [value for key, value in hints.items() if key != "return"]
            accepted = typing.get_args(first) if isinstance(first, types.UnionType) else (first,)
            assert event_type in accepted, (event_type, handler)


def test_every_handler_is_a_row(engine: Engine) -> None:
    """A function of the server that takes an event (its first parameter annotated with
    an event type) is wired in the table: no reaction is written and left unwired."""
    names = {event_type.__name__ for event_type in _event_types()}
    takes_an_event: set[str] = set()
    for path in SERVER.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for owner in [tree, *(n for n in tree.body if isinstance(n, ast.ClassDef))]:
            for node in owner.body:
                if not isinstance(node, ast.FunctionDef):
                    continue
                params = [a for a in node.args.args if a.arg != "self"]
                annotation = (
                    ast.unparse(params[0].annotation) if params and params[0].annotation else ""
                )
                if names & {part.strip() for part in annotation.split("|")}:
                    prefix = f"{owner.name}." if isinstance(owner, ast.ClassDef) else ""
                    takes_an_event.add(prefix + node.name)
    wired = {
        handler.__qualname__ for handlers in reactions(engine).values() for handler in handlers
    }
    assert len(takes_an_event) >= 20  # the scan sees the handlers
    assert takes_an_event == wired


def test_no_slice_keeps_a_hook_list() -> None:
    """No cross-slice wiring is left outside the table: no ``*_hooks`` or ``observers``
    list in the server, and the unit of work imports no other slice."""
    for path in SERVER.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute):
                assert not node.attr.endswith("_hooks"), (path, node.lineno, node.attr)
                assert node.attr != "observers", (path, node.lineno)
    unit = ast.parse((STORE / "runtime" / "unit.py").read_text(encoding="utf-8"))
    imported = {
        node.module
        for node in ast.walk(unit)
        if isinstance(node, ast.ImportFrom) and node.module
        if node.module.startswith("praxis.store.")
    }
    slices = {name.split(".")[2] for name in imported}
    assert slices <= {"db", "runtime", "wake"}, imported


@dataclasses.dataclass(frozen=True)
class Ping:
    label: str


def test_handlers_run_in_order_and_gather_answers() -> None:
    seen: list[str] = []
    dispatch = Reactions(
        {Ping: (lambda e: seen.append("a" + e.label), lambda e: seen.append("b" + e.label))}
    )
    dispatch.publish(Ping("1"))
    assert seen == ["a1", "b1"]
    assert dispatch.gather(Ping("2")) == [None, None] and seen[2:] == ["a2", "b2"]
    assert Reactions().gather(Ping("3")) == [] and not Reactions().wired(Ping)


def test_a_handler_that_raises_stops_the_rest() -> None:
    seen: list[str] = []

    def refuse(_event: Ping) -> None:
        raise Rollback(precondition("REFUSED", "no"))

    dispatch = Reactions({Ping: (refuse, lambda e: seen.append(e.label))})
    with pytest.raises(Rollback):
        dispatch.publish(Ping("x"))
    assert seen == []


def test_after_commit_runs_once_per_equal_event_and_never_after_a_rollback(
    engine: Engine,
) -> None:
    seen: list[str] = []
    dispatch = Reactions({Ping: (lambda e: seen.append(e.label),)})

    def twice(connection: typing.Any) -> None:
        dispatch.after_commit(connection, Ping("a"))
        dispatch.after_commit(connection, Ping("a"))  # equal: pending once
        dispatch.after_commit(connection, Ping("b"))
        assert seen == []  # not before the commit

    engine.db.transact(twice, scoped=False)
    assert seen == ["a", "b"]

    def refused(connection: typing.Any) -> None:
        dispatch.after_commit(connection, Ping("c"))
        raise Rollback(None)

    engine.db.transact(refused, scoped=False)
    assert seen == ["a", "b"]
