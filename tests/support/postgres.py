"""A throwaway PostgreSQL cluster for the tests that run on both databases.

The cluster is created with the ``postgresql`` package's own ``initdb`` in a temporary
folder, listens on a free loopback port, and is stopped at the end of the session (the
``postgres_cluster`` fixture of ``tests/conftest.py``). Each test gets a fresh database.
``.ci/run`` installs the package and sets ``PRAXIS_REQUIRE_POSTGRES=1``, which turns a
missing installation into a failure instead of a reported skip.

Under pytest-xdist every worker is a process of its own with its own session, so each
worker starts its own cluster (own folder, own port) and no two workers share a database.

A test that reaches PostgreSQL must be marked ``postgres`` (``tests/conftest.py`` marks it
from its fixtures and its ``backend`` parameter), or ``-m "not postgres"`` would let it
into the SQLite half: :func:`required_binaries` and :meth:`Cluster.create_database` fail
such a test instead of serving it (:func:`expect_marked`).
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.server_process import free_port

_databases = itertools.count()
# A throwaway cluster never waits for the disk: without fsync a CREATE DATABASE from the
# migrated template took about 0.2 s instead of 0.9 s (a test's set-up on PostgreSQL), on
# this machine's slow disk. Nothing a test does depends on it: a commit still writes its
# WAL to the kernel before it returns (synchronous_commit stays on), so a killed server
# (``halt``, ``pg_ctl -m immediate``) loses no committed transaction; only a crash of
# the machine itself could.
FAST = "-c fsync=off"
_marked = True  # whether the running test may reach PostgreSQL; True outside pytest


def expect_marked(marked: bool) -> None:
    """Records whether the test about to run is marked ``postgres`` (tests/conftest.py
    calls this before each test's fixtures are set up)."""
    global _marked
    _marked = marked


def _check_marked() -> None:
    """Fails a test that reaches PostgreSQL without the ``postgres`` marker: one that asks
    for the cluster by ``request.getfixturevalue``, which no marker hook can see."""
    if not _marked:
        pytest.fail(
            "this test reaches PostgreSQL but is not marked postgres: ask for the cluster "
            "as a fixture argument or parametrize `backend` (tests/conftest.py marks both)",
            pytrace=False,
        )


def required_binaries() -> Path:
    """The PostgreSQL binaries; without them the test is skipped, or fails when
    ``PRAXIS_REQUIRE_POSTGRES=1`` (CI installs them)."""
    _check_marked()
    bin_dir = binaries()
    if bin_dir is None:
        message = "PostgreSQL is not installed (apt-get install postgresql; CI does)"
        if os.environ.get("PRAXIS_REQUIRE_POSTGRES") == "1":
            pytest.fail(message)
        pytest.skip(message)
    return bin_dir


def binaries() -> Path | None:
    """The newest installed PostgreSQL's ``bin`` folder, or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


def _as_owner(command: list[str]) -> list[str]:
    """Runs as the ``postgres`` user when we are root (PostgreSQL refuses root)."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return command


class Cluster:
    """One running PostgreSQL server."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin_dir = bin_dir
        self.directory = Path(tempfile.mkdtemp(prefix="praxis-pg-"))
        self.port = free_port()
        if os.geteuid() == 0:
            shutil.chown(self.directory, "postgres")
        data = self.directory / "data"
        subprocess.run(
            _as_owner([str(bin_dir / "initdb"), "-D", str(data), "-A", "trust", "-U", "praxis"]),
            check=True,
            capture_output=True,
        )
        self.data = data
        self._templates: dict[Callable[[str], None], str] = {}
        self.resume()

    def dsn(self, database: str) -> str:
        """A libpq connection string to ``database``."""
        return f"host=127.0.0.1 port={self.port} user=praxis dbname={database}"

    def postmaster_pid(self) -> int:
        """The cluster's main process (its backends are its children)."""
        return int((self.data / "postmaster.pid").read_text().split()[0])

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://praxis@127.0.0.1:{self.port}/{database}"

    def create_database(self, prepare: Callable[[str], None] | None = None) -> str:
        """A fresh, empty database's URL; with ``prepare`` (a function that fills an
        empty database, e.g. migrates it), a copy of a database it prepared once for
        this cluster (``CREATE DATABASE ... TEMPLATE``), still a database of its own."""
        _check_marked()
        template = None
        if prepare is not None:
            template = self._templates.get(prepare)
            if template is None:
                template = self._create(None)
                prepare(self.url(template))
                self._templates[prepare] = template
        return self.url(self._create(template))

    def _create(self, template: str | None) -> str:
        import psycopg

        name = f"t{next(_databases)}_{int(time.time() * 1000) % 100000}"
        copy = f' TEMPLATE "{template}"' if template else ""
        with psycopg.connect(self.dsn("postgres"), autocommit=True) as connection:
            for attempt in itertools.count():
                try:
                    connection.execute(f'CREATE DATABASE "{name}"{copy}')
                    return name
                except psycopg.errors.ObjectInUse:  # the template's last session ending
                    if attempt >= 50:
                        raise
                    time.sleep(0.02)
        raise AssertionError("unreachable")

    def halt(self) -> None:
        """Stops the server (as a crash or an outage would), keeping its data."""
        subprocess.run(
            _as_owner(
                [str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"]
            ),
            check=True,
            capture_output=True,
        )

    def resume(self) -> None:
        """Starts the server (again, after :meth:`halt`) on the same port and data."""
        subprocess.run(
            _as_owner(
                [
                    str(self.bin_dir / "pg_ctl"),
                    "-D",
                    str(self.data),
                    "-o",
                    f"-p {self.port} -k {self.directory} -c listen_addresses=127.0.0.1 {FAST}",
                    "-l",
                    str(self.directory / "log"),
                    "-w",
                    "start",
                ]
            ),
            check=True,
            capture_output=True,
        )

    def stop(self) -> None:
        subprocess.run(
            _as_owner(
                [str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"]
            ),
            capture_output=True,
        )
        # Hundreds of test databases make a large tree: removing it in the background
        # keeps a slow disk from charging minutes to the last test's teardown.
        subprocess.Popen(
            ["rm", "-rf", str(self.directory)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
