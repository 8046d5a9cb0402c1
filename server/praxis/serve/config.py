"""Local configuration: where the database and principals are, created on first run.

A first ``praxis serve`` with no config writes ``<data dir>/config.json``, a principals
file holding only token hashes, and ``credentials.json`` (mode 0600) with the fresh
random tokens of one human and one agent principal, and says where they are. There is
never an allow-all default.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from praxis.authority.principals import AGENT_ACTIONS, HUMAN_ACTIONS, new_principal
from praxis.core import values, webhooks
from praxis.core.definition import Limits
from praxis.core.records import PrincipalKind
from praxis.core.retention import RetentionPolicy, parse_policy
from praxis.deliverer import DeliveryLimits, Destination, destination_problem
from praxis.limits import ServingLimits
from praxis.store.db import dialect

DEFAULT_DATA_DIR = Path(".praxis")
DEFAULT_JOURNAL = "principals-journal.jsonl"


@dataclass(frozen=True)
class Config:
    """Server settings read from ``config.json``."""

    database_url: str
    principals_path: Path
    models: tuple[str, ...] = ("echo", "gpt-test")
    clock_tolerance_ms: int = 5_000
    synchronous: str = "FULL"
    limits: Limits = field(default_factory=Limits)
    serving: ServingLimits = field(default_factory=ServingLimits)
    # SHA-256 (hex) of a TLS client certificate's DER -> principal id (mutual TLS).
    client_certificates: dict[str, str] = field(default_factory=dict)
    # host:port of the Prometheus endpoint (praxis.observability.metrics); None: no metrics.
    metrics_listen: str | None = None
    # PostgreSQL connections per server process (None: 2 x (executor_threads + 1) + 1).
    db_pool_size: int | None = None
    # Revocations and rotations kept outside the database (default: beside this file);
    # re-applied at every start, so a restored backup revives no revoked credential.
    principal_journal: Path | None = None
    # Retention and archival of finished runs (core/retention.py); default: kept for ever.
    retention: RetentionPolicy = field(default_factory=RetentionPolicy)
    archive_dir: Path | None = None  # retention.archive_dir, resolved against this file
    # Webhook destinations by name (never URLs from callers) and the deliverer's bounds.
    webhooks: dict[str, Destination] = field(default_factory=dict)
    notifications: DeliveryLimits = field(default_factory=DeliveryLimits)


KEYS = frozenset(
    {
        "database_url",
        "principals_path",
        "models",
        "clock_tolerance_ms",
        "synchronous",
        "limits",
        "serving",
        "client_certificates",
        "metrics_listen",
        "db_pool_size",
        "principal_journal",
        "retention",
        "webhooks",
        "notifications",
    }
)


class ConfigError(ValueError):
    """The config file is not valid."""


def load(path: Path) -> Config:
    """Reads a config file; relative paths are relative to the file's folder.

    Raises:
        ConfigError: Unknown keys (a typo is never ignored) or invalid values.
    """
    data = json.loads(path.read_text(encoding="utf-8"))
    unknown = sorted(set(data) - KEYS)
    if unknown:
        raise ConfigError(f"{path}: unknown keys {unknown}; known: {sorted(KEYS)}")
    try:
        limits = Limits(**data.get("limits", {}))
    except TypeError as error:
        raise ConfigError(f"{path}: limits: {error}") from error
    try:
        serving = ServingLimits(**data.get("serving", {}))
    except (TypeError, ValueError) as error:
        raise ConfigError(f"{path}: serving: {error}") from error
    pool_size = data.get("db_pool_size")
    if pool_size is not None:
        problem = dialect.check_pool_size(pool_size, serving.executor_threads)
        if problem:
            raise ConfigError(f"{path}: {problem}")
    try:
        notifications = DeliveryLimits(**data.get("notifications", {}))
    except (TypeError, ValueError) as error:
        raise ConfigError(f"{path}: notifications: {error}") from error
    destinations = webhook_destinations(path, data.get("webhooks", {}))
    base = path.parent
    database = str(data["database_url"])
    if database.startswith("sqlite:///") and not database.startswith("sqlite:////"):
        database = "sqlite:///" + str((base / database[len("sqlite:///") :]).resolve())
    principals = Path(data["principals_path"])
    journal = Path(str(data.get("principal_journal", DEFAULT_JOURNAL)))
    try:
        retention = parse_policy(data.get("retention", {}))
    except ValueError as error:
        raise ConfigError(f"{path}: {error}") from error
    archive_dir = Path(retention.archive_dir)
    return Config(
        database_url=database,
        principals_path=principals if principals.is_absolute() else base / principals,
        models=tuple(data.get("models", Config.models)),
        clock_tolerance_ms=int(data.get("clock_tolerance_ms", 5_000)),
        synchronous=str(data.get("synchronous", "FULL")),
        limits=limits,
        serving=serving,
        client_certificates={
            str(k): str(v) for k, v in data.get("client_certificates", {}).items()
        },
        metrics_listen=str(data["metrics_listen"]) if data.get("metrics_listen") else None,
        db_pool_size=pool_size,
        principal_journal=journal if journal.is_absolute() else base / journal,
        retention=retention,
        archive_dir=archive_dir if archive_dir.is_absolute() else base / archive_dir,
        webhooks=destinations,
        notifications=notifications,
    )


def webhook_destinations(path: Path, declared: object) -> dict[str, Destination]:
    """The ``webhooks`` object: name -> ``{"url": "http(s)://...", "secret": "whsec_..."}``.

    The one check of declared destinations, at start-up (and for a future live reload of
    the config): a destination the sender could not use refuses them all. A refusal names
    the destination and the rule it breaks, never its URL or secret.

    Raises:
        ConfigError: A destination that is malformed or that the sender cannot use.
    """
    if not isinstance(declared, dict):
        raise ConfigError(f"{path}: webhooks: an object of name -> destination")
    found: dict[str, Destination] = {}
    for name, spec in declared.items():
        where = f"{path}: webhooks.{name}"
        if values.identifier_problem(name) is not None:
            raise ConfigError(f"{where}: the name is not an identifier")
        if not isinstance(spec, dict) or set(spec) != {"url", "secret"}:
            raise ConfigError(f"{where}: exactly the keys url and secret")
        url, secret = spec["url"], spec["secret"]
        if not isinstance(url, str):
            raise ConfigError(f"{where}: url must be a string")
        problem = destination_problem(Destination(name, url, b""))
        if problem:  # names the destination, never quotes its URL
            raise ConfigError(f"{path}: {problem}")
        key = webhooks.secret_key(str(secret))
        if key is None:
            raise ConfigError(
                f"{where}: secret must be whsec_ and the base64 of 24 to 64 random bytes"
            )
        found[name] = Destination(name, str(url), key)
    return found


def write_private(path: Path, text: str) -> None:
    """Writes ``text`` to a file only its owner can read or write (0600), whatever the umask."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)


def check_private(path: Path) -> None:
    """Refuses a principals or credentials file that anyone but its owner can write.

    Raises:
        ConfigError: The file (or its folder) is writable by its group or by others:
            anyone who can write it could add a HUMAN principal.
    """
    for target in (path, path.parent):
        mode = target.stat().st_mode
        if mode & 0o022 and not (target.is_dir() and mode & 0o1000):  # sticky dirs are ok
            raise ConfigError(
                f"{target} is writable by its group or others (mode {mode & 0o777:o}); "
                f"run: chmod go-w {target}"
            )


def create_default(data_dir: Path) -> tuple[Path, Path]:
    """Writes a fresh local config; returns the config and credentials paths.

    The data directory is created 0700 and every file in it 0600, whatever the umask.
    """
    data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    data_dir.chmod(0o700)
    human, human_token = new_principal("local-human", PrincipalKind.HUMAN, HUMAN_ACTIONS)
    agent, agent_token = new_principal("local-agent", PrincipalKind.AGENT, AGENT_ACTIONS)
    principals_path = data_dir / "principals.json"
    write_private(
        principals_path,
        json.dumps({"version": 1, "principals": [human, agent]}, indent=2) + "\n",
    )
    credentials_path = data_dir / "credentials.json"
    write_private(
        credentials_path,
        json.dumps(
            {
                "local-human": {"kind": "HUMAN", "token": human_token},
                "local-agent": {"kind": "AGENT", "token": agent_token},
            },
            indent=2,
        )
        + "\n",
    )
    config_path = data_dir / "config.json"
    write_private(
        config_path,
        json.dumps(
            {
                "database_url": "sqlite:///praxis.db",
                "principals_path": "principals.json",
                "models": list(Config.models),
                "clock_tolerance_ms": 5_000,
                "synchronous": "FULL",
            },
            indent=2,
        )
        + "\n",
    )
    return config_path, credentials_path
