"""The ``praxis`` console script: ``serve`` runs the server, ``console`` the web console
(docs/console.md), ``admin`` works on a data directory's files (backup, restore) but for
``admin reload`` and ``admin config`` (AdminService), anything else is remote.

Remote commands never import the server (SQLAlchemy and the stores), so they start fast.
"""

from __future__ import annotations

import sys

REMOTE_ADMIN = ("reload", "config")
"""``praxis admin`` commands that are remote (AdminService), not on a data directory."""


def local(argv: list[str]) -> bool:
    """Whether ``argv`` is a local command (``serve``, ``console``, ``admin backup``...)."""
    if argv[:1] == ["admin"]:
        return not (len(argv) > 1 and argv[1] in REMOTE_ADMIN)
    return bool(argv) and argv[0] in ("serve", "console")


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``praxis`` command."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if local(argv):  # the local commands
        from praxis.serve.cli import main as serve_main

        return serve_main(argv)
    from praxis_cli.main import run

    return run(argv)
