"""The command groups; each module's ``register`` adds its parsers and handlers."""

from __future__ import annotations

from praxis_cli.commands import (
    admin,
    agent_mcp,
    approvals,
    completion,
    decide,
    deliverables,
    deliveries,
    principals,
    registry,
    runs,
    schedules,
    simulate,
)

COMMAND_MODULES = (
    principals, decide, registry, runs, schedules, deliverables, approvals, admin, deliveries,
    agent_mcp, simulate, completion,
)  # fmt: skip
