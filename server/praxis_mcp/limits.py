"""The bounds of what the MCP tools take and answer (docs/agents.md, "Limits").

A tool answer holds at most one document (a definition, a task's input, a run's result
or an answer), whole: the server caps those (1 MiB for definitions and results, 2 MiB for
a task's input), so an answer never exceeds about 2.1 MiB. Everything else is cut here.
"""

from __future__ import annotations

MAX_WAIT_S = 60.0
"""The longest a tool blocks: ``wait_for_run``, ``get_answer`` and ``claim_task``'s
wait. A caller that wants to wait longer calls again."""

MAX_NODES = 100
"""Nodes listed in a run summary; past it, ``nodes_omitted`` says how many were left out."""

MAX_TEXT = 4_096
"""Characters kept of a free text the server sends (a node's error, a run's result
error); longer ones end with a marker saying how many were cut."""

MAX_QUESTION = 4_096
"""Characters of a question ``ask_human`` accepts."""

MAX_LISTED = 50
"""Items a listing tool answers per call (``list_runs``, ``list_handoffs``); past it, a
``next_page_token`` continues."""

MAX_SCANNED_RUNS = 50
"""Live runs ``list_waits`` (and ``get_inbox``) look into when no run is named: the
agent's newest ones; ``runs_omitted`` says when there were more."""

MAX_SCANNED_EVENTS = 5_000
"""Events of the agent's reply subscription ``get_replies`` reads past its acknowledged
position (a reply run's other events are in the same subscription); ``more`` says when
it stopped there."""

MAX_WATCHES = 32
"""Resources watched at once for subscribers, over every session of the process. Each
watch is one task holding one ``WatchRun`` stream (and one thread); a subscription past
the bound is refused, never queued."""

DEFAULT_LEASE_S = 300
"""How long a claimed task is leased when the caller does not say (5 minutes)."""

DEFAULT_ASK_EXPIRY_S = 86_400
"""How long ``ask_human`` waits for an answer when the caller does not say (one day)."""


def clip(text: str, limit: int = MAX_TEXT) -> str:
    """``text``, cut to ``limit`` characters with a marker naming how many were cut."""
    if len(text) <= limit:
        return text
    return text[:limit] + f"... [{len(text) - limit} more characters cut]"


def bounded_wait(seconds: float) -> float:
    """``seconds`` within 0 and :data:`MAX_WAIT_S`."""
    return max(0.0, min(float(seconds), MAX_WAIT_S))
