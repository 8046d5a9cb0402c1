"""The command groups; each module's ``register`` adds its parsers and handlers."""

from __future__ import annotations

from praxis_cli.commands import admin, decide, deliveries, principals, registry, runs

COMMAND_MODULES = (principals, decide, registry, runs, admin, deliveries)
