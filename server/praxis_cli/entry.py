"""The ``praxis`` console script: ``serve`` runs the server, ``console`` the web console
(docs/console.md), ``admin`` works on a data directory's files (backup, restore),
anything else is remote.

Remote commands never import the server (SQLAlchemy and the stores), so they start fast.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``praxis`` command."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] in ("serve", "console", "admin"):  # the local commands
        from praxis.serve.cli import main as serve_main

        return serve_main(argv)
    from praxis_cli.main import run

    return run(argv)
