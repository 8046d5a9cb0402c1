"""The runs page's search box: one line a person types, read as the filters of ListRuns.

``run_8f2c…`` (a run id), ``failed`` or ``state:failed`` (a state), ``team=search`` or
``label:team=search`` (a label; several must all match), ``orders/nightly`` or
``ref:orders/nightly`` (the runs of a ref). Words combine; pure, so a test reads it
without a server.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass

RUN_STATES = ("RUNNING", "AWAITING_NODES", "COMPLETED", "FAILED", "CANCELLED")
MAX_QUERY = 512


@dataclass(frozen=True)
class RunSearch:
    """What a search asks for; ``problem`` says why it cannot be run as typed."""

    run_id: str = ""
    state: str = ""  # a RunState name, RUN_STATE_ prefixed
    ref: tuple[str, str] | None = None
    labels: tuple[tuple[str, str], ...] = ()
    problem: str = ""


def _state(word: str) -> str:
    name = word.upper().replace("-", "_").removeprefix("RUN_STATE_")
    return f"RUN_STATE_{name}" if name in RUN_STATES else ""


def _words(query: str) -> list[str]:
    try:
        return shlex.split(query)
    except ValueError:  # an unclosed quote: the words as typed
        return query.split()


def parse(query: str) -> RunSearch:
    """Reads a search line (see the module docstring)."""
    run_id, state, ref = "", "", None
    labels: list[tuple[str, str]] = []
    for word in _words(query[:MAX_QUERY]):
        key, colon, value = word.partition(":")
        kind = key.lower() if colon and key.lower() in ("state", "label", "ref", "run") else ""
        text = value if kind else word
        if kind == "state" or (not kind and _state(text)):
            if not _state(text):
                return RunSearch(problem=f"{text!r} is not a run state: {', '.join(RUN_STATES)}")
            state = _state(text)
        elif kind == "label" or (not kind and "=" in text):
            name, _, label = text.partition("=")
            if not name:
                return RunSearch(problem=f"{text!r} is not a label: write key=value")
            labels.append((name, label))
        elif kind == "ref" or (not kind and "/" in text):
            work_order, _, ref_run = text.partition("/")
            if not work_order or not ref_run:
                return RunSearch(problem=f"{text!r} is not a ref: write work-order/run")
            ref = (work_order, ref_run)
        else:
            if run_id and run_id != text:
                return RunSearch(problem="search for one run id at a time")
            run_id = text
    return RunSearch(run_id, state, ref, tuple(labels))


def matches(
    search: RunSearch, state: str, ref: tuple[str, str] | None, labels: dict[str, str]
) -> bool:
    """Whether a run (found by its id) also meets the search's other words."""
    if search.state and search.state != state:
        return False
    if search.ref is not None and search.ref != ref:
        return False
    return all(labels.get(key) == value for key, value in search.labels)
