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
from typing import Any

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
    # The logging level (`log_level`), applied at start and at every reload; None:
    # the --log-level flag's.
    log_level: str | None = None


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
        "log_level",
    }
)
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a config file: its JSON path and what is wrong there."""

    path: str
    message: str


class ConfigError(ValueError):
    """The config file is not valid: every problem found, each with its JSON path."""

    def __init__(self, source: Path | str, problems: list[Problem] | None = None) -> None:
        self.problems = tuple(problems or ())
        if problems is None:  # a problem of another file (check_private): its text
            super().__init__(str(source))
            return
        listed = "; ".join(f"{problem.path}: {problem.message}" for problem in problems)
        super().__init__(f"{source}: {listed}")


@dataclass(frozen=True)
class Loaded:
    """A config file read and validated: the document as written (its version is
    :func:`praxis.core.reload.version_of` of it) and the settings it makes."""

    document: dict[str, Any]
    config: Config


def load(path: Path) -> Config:
    """Reads a config file; relative paths are relative to the file's folder.

    Raises:
        ConfigError: Unknown keys (a typo is never ignored) or invalid values: every
            problem of the file at once, each with its JSON path.
    """
    return read(path).config


def read(path: Path) -> Loaded:
    """Reads and validates all of a config file (see :func:`load`).

    Raises:
        ConfigError: The file cannot be read, is not a JSON object, or breaks rules.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(
            path, [Problem("$", f"cannot be read: {error.__class__.__name__}")]
        ) from error
    except ValueError as error:
        raise ConfigError(path, [Problem("$", f"not JSON: {error}")]) from error
    if not isinstance(data, dict):
        raise ConfigError(path, [Problem("$", "must be a JSON object")])
    problems: list[Problem] = []
    config = _build(path, data, problems)
    if problems or config is None:
        raise ConfigError(path, problems)
    return Loaded(data, config)


def _section(data: dict[str, Any], key: str, problems: list[Problem]) -> dict[str, Any]:
    """An object-valued key (``{}`` when absent); a problem when it is no object."""
    value = data.get(key, {})
    if isinstance(value, dict):
        return value
    problems.append(Problem(key, "must be a JSON object"))
    return {}


def _build(path: Path, data: dict[str, Any], problems: list[Problem]) -> Config | None:
    """The settings of a document, appending each problem found (every key is checked,
    whatever failed before it); ``None`` when one is found."""
    problems += [
        Problem(key, f"unknown key; known: {sorted(KEYS)}") for key in sorted(set(data) - KEYS)
    ]
    for key in ("database_url", "principals_path"):
        if not isinstance(data.get(key), str) or not data[key]:
            problems.append(Problem(key, "required: a non-empty string"))
    limits = Limits()
    declared = _section(data, "limits", problems)
    wrong = [
        key
        for key, value in declared.items()
        if isinstance(value, bool) or not isinstance(value, int) or value < 1
    ]
    problems += [Problem(f"limits.{key}", "must be a positive integer") for key in wrong]
    try:
        limits = Limits(**declared)
    except (TypeError, ValueError) as error:
        problems.append(Problem("limits", str(error)))
    serving = ServingLimits()
    try:
        serving = ServingLimits(**_section(data, "serving", problems))
    except (TypeError, ValueError) as error:
        problems.append(Problem("serving", str(error)))
    pool_size = data.get("db_pool_size")
    if pool_size is not None:
        problem = dialect.check_pool_size(pool_size, serving.executor_threads)
        if problem:
            problems.append(Problem("db_pool_size", problem))
    notifications = DeliveryLimits()
    try:
        notifications = DeliveryLimits(**_section(data, "notifications", problems))
    except (TypeError, ValueError) as error:
        problems.append(Problem("notifications", str(error)))
    destinations = webhook_checked(data.get("webhooks", {}), problems)
    retention = RetentionPolicy()
    try:
        retention = parse_policy(_section(data, "retention", problems))
    except ValueError as error:
        problems.append(Problem("retention", str(error)))
    models = data.get("models", list(Config.models))
    if not isinstance(models, list) or not all(isinstance(m, str) and m for m in models):
        problems.append(Problem("models", "must be a list of model names"))
    log_level = data.get("log_level")
    if log_level is not None and (
        not isinstance(log_level, str) or log_level.upper() not in LOG_LEVELS
    ):
        problems.append(Problem("log_level", f"must be one of {', '.join(LOG_LEVELS)}"))
    numbers: dict[str, int] = {}
    for key, default in (("clock_tolerance_ms", 5_000),):
        value = data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            problems.append(Problem(key, "must be a non-negative integer"))
        else:
            numbers[key] = value
    certificates = data.get("client_certificates", {})
    if not isinstance(certificates, dict):
        problems.append(Problem("client_certificates", "must be a JSON object"))
    if problems:
        return None
    base = path.parent
    database = str(data["database_url"])
    if database.startswith("sqlite:///") and not database.startswith("sqlite:////"):
        database = "sqlite:///" + str((base / database[len("sqlite:///") :]).resolve())
    principals = Path(data["principals_path"])
    journal = Path(str(data.get("principal_journal", DEFAULT_JOURNAL)))
    archive_dir = Path(retention.archive_dir)
    return Config(
        database_url=database,
        principals_path=principals if principals.is_absolute() else base / principals,
        models=tuple(models),
        clock_tolerance_ms=numbers["clock_tolerance_ms"],
        synchronous=str(data.get("synchronous", "FULL")),
        limits=limits,
        serving=serving,
        client_certificates={str(k): str(v) for k, v in certificates.items()},
        metrics_listen=str(data["metrics_listen"]) if data.get("metrics_listen") else None,
        db_pool_size=pool_size,
        principal_journal=journal if journal.is_absolute() else base / journal,
        retention=retention,
        archive_dir=archive_dir if archive_dir.is_absolute() else base / archive_dir,
        webhooks=destinations,
        notifications=notifications,
        log_level=log_level.upper() if isinstance(log_level, str) else None,
    )


def webhook_destinations(path: Path, declared: object) -> dict[str, Destination]:
    """The ``webhooks`` object: name -> ``{"url": "http(s)://...", "secret": "whsec_..."}``.

    The one check of declared destinations, at start-up and at every reload: a
    destination the sender could not use refuses them all. A refusal names the
    destination and the rule it breaks, never its URL or secret.

    Raises:
        ConfigError: A destination that is malformed or that the sender cannot use.
    """
    problems: list[Problem] = []
    found = webhook_checked(declared, problems)
    if problems:
        raise ConfigError(path, problems)
    return found


def webhook_checked(declared: object, problems: list[Problem]) -> dict[str, Destination]:
    """The destinations of ``declared``, appending a problem per unusable one."""
    if not isinstance(declared, dict):
        problems.append(Problem("webhooks", "an object of name -> destination"))
        return {}
    found: dict[str, Destination] = {}
    for name, spec in declared.items():
        where = f"webhooks.{name}"
        if values.identifier_problem(name) is not None:
            problems.append(Problem(where, "the name is not an identifier"))
            continue
        if not isinstance(spec, dict) or set(spec) != {"url", "secret"}:
            problems.append(Problem(where, "exactly the keys url and secret"))
            continue
        url, secret = spec["url"], spec["secret"]
        if not isinstance(url, str):
            problems.append(Problem(where, "url must be a string"))
            continue
        problem = destination_problem(Destination(name, url, b""))
        if problem:  # names the destination, never quotes its URL
            problems.append(Problem(where, problem.removeprefix(f"{where}: ")))
            continue
        key = webhooks.secret_key(str(secret))
        if key is None:
            problems.append(
                Problem(where, "secret must be whsec_ and the base64 of 24 to 64 random bytes")
            )
            continue
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
