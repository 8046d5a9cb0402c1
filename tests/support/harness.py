"""The test harness: the test principals, a real server on a real database (SQLite file or
PostgreSQL URL), one client per principal, and ``expect_error``."""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import grpc
import pytest

from aiws.engine.v1 import common_pb2, registry_pb2
from praxis.app import Server, Settings
from praxis.authority.principals import PrincipalsAuthority, hash_token, parse_principals
from praxis.clock import TestClock
from praxis.store.db.database import Database
from praxis.store.schema import MIGRATIONS
from praxis_client import Client, connect, error_details

T0 = 1_800_000_000_000
PRINCIPALS = [
    ("alice", "HUMAN", ["*"], 0),
    ("bob", "HUMAN", ["*"], 0),
    (
        "agent",
        "AGENT",
        ["registry.read", "registry.propose", "approval.read", "run.*", "task.*", "event.*"],
        0,
    ),
    ("service", "SERVICE", ["registry.*", "approval.*", "run.*", "event.*"], 0),
    ("reader", "HUMAN", ["registry.read"], 0),
    ("rogue", "AGENT", ["*"], 0),
    ("expired", "HUMAN", ["*"], T0 - 1),
    ("scoped", "HUMAN", ["*"], 0),
]
# Work orders each principal's grant covers (every one unless listed here).
SCOPES = {"scoped": ["wo-a*"]}


def token_of(principal_id: str) -> str:
    """The deterministic test token of a principal."""
    return f"token-{principal_id}"


def principals_document() -> dict[str, object]:
    """A principals file with every test principal."""
    return {
        "version": 1,
        "principals": [
            {
                "id": pid,
                "kind": kind,
                "token_sha256": hash_token(token_of(pid)),
                "expires_at_ms": expires,
                "grants": [{"actions": actions, "work_orders": SCOPES.get(pid, ["*"])}],
            }
            for pid, kind, actions, expires in PRINCIPALS
        ],
    }


def authority() -> PrincipalsAuthority:
    """The built-in authority over the test principals."""
    return PrincipalsAuthority(parse_principals(principals_document()))


def write_principals(path: Path) -> Path:
    """Writes the test principals file."""
    path.write_text(json.dumps(principals_document()), encoding="utf-8")
    return path


@dataclass
class Harness:
    """A running in-process server and one client per principal."""

    server: Server
    clock: TestClock
    address: str
    clients: dict[str, Client] = field(default_factory=dict)

    replicas: list[Server] = field(default_factory=list)
    """Every server of the harness (``server`` is the first); one unless replicated."""

    def client(self, principal_id: str | None) -> Client:
        key = principal_id or ""
        if key not in self.clients:
            token = token_of(principal_id) if principal_id else None
            if len(self.replicas) > 1:  # client-side round robin: calls alternate
                self.clients[key] = connect(self.address, token, insecure=True, options=ROUND_ROBIN)
            else:
                self.clients[key] = connect(self.address, token)
        return self.clients[key]

    @property
    def installation_id(self) -> str:
        return self.server.engine.installation_id

    def epochs(self, work_order_id: str = "wo-1") -> common_pb2.Epochs:
        return (
            self.client("alice")
            .registry.GetEpochs(registry_pb2.GetEpochsRequest(work_order_id=work_order_id))
            .epochs
        )

    def close(self) -> None:
        for client in self.clients.values():
            client.close()
        for server in self.replicas or [self.server]:
            server.stop(0)


_TEMPLATE: list[Path] = []


def migrated(database: Path) -> Path:
    """``database`` made a fresh SQLite file with every migration applied at ``T0``, as
    the server's first start would apply them: a copy of a file migrated once per
    process (each pytest-xdist worker its own), since migrating takes most of a server's
    start-up (one COMMIT per migration). The copy is a database of its own; no
    installation id is in it yet. A path that exists already is left as it is."""
    if database.exists():
        return database
    if not _TEMPLATE:
        folder = tempfile.mkdtemp(prefix="praxis-template-")
        atexit.register(shutil.rmtree, folder, True)
        template = Path(folder) / "migrated.db"
        migrate(f"sqlite:///{template}")
        _TEMPLATE.append(template)
    shutil.copyfile(_TEMPLATE[0], database)
    os.chmod(database, 0o600)
    return database


def migrate(url: str) -> None:
    """Applies every migration to the empty database at ``url``, at ``T0``."""
    db = Database(url)
    try:
        db.migrate(T0, MIGRATIONS)
    finally:
        db.close()


def start_server(
    database: Path | str, clock: TestClock | None = None, **settings: object
) -> Harness:
    """A server on a SQLite file (a path) or any database URL, on a free loopback port."""
    clock = clock or TestClock(T0)
    settings.setdefault("authority", authority())
    server = Server(
        Settings(
            database_url=database if isinstance(database, str) else f"sqlite:///{database}",
            clock=clock,
            listen="127.0.0.1:0",
            **settings,  # type: ignore[arg-type]
        )
    )
    server.start()
    return Harness(server, clock, f"127.0.0.1:{server.port}")


ROUND_ROBIN = (("grpc.lb_policy_name", "round_robin"),)


def start_replicas(
    database: str | Path, count: int, clock: TestClock | None = None, **settings: object
) -> Harness:
    """``count`` servers on one database URL sharing one test clock; the harness's address
    lists them all (``ipv4:a,b``) for round-robin clients. A change made through any
    replica's TestClockService wakes the waiters and sweepers of all of them."""
    assert isinstance(database, str), "replicas share a PostgreSQL database"
    clock = clock or TestClock(T0)
    servers: list[Server] = []
    try:
        for _ in range(count):
            servers.append(start_server(database, clock, **settings).server)
    except BaseException:
        for server in servers:
            server.stop(0)
        raise
    address = "ipv4:" + ",".join(f"127.0.0.1:{server.port}" for server in servers)
    return Harness(servers[0], clock, address, replicas=servers)


@contextlib.contextmanager
def expect_error(code: grpc.StatusCode, reason: str) -> Iterator[None]:
    """Asserts that the block fails with ``code`` and ``ErrorInfo.reason``."""
    with pytest.raises(grpc.RpcError) as caught:
        yield
    details = error_details(caught.value)
    assert (details.code, details.reason) == (code, reason), details
    assert details.domain == "engine.aiws"
