"""Where to connect: flags, then environment, then a named profile, then the default.

Profiles live in ``$PRAXIS_CONFIG`` or ``<user config dir>/praxis/config.json``
(``$XDG_CONFIG_HOME`` or ``~/.config``), written with mode 0600 because they hold
tokens::

    {"default_profile": "prod",
     "profiles": {"prod": {"address": "praxis.example:443", "token": "prx_...",
                           "tls_roots": "/etc/ssl/praxis-ca.pem"}}}
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from praxis_cli.errors import CliError, usage

DEFAULT_ADDRESS = "127.0.0.1:50051"
ENV_ADDRESS = "PRAXIS_ADDRESS"
ENV_TOKEN = "PRAXIS_TOKEN"
ENV_TLS_ROOTS = "PRAXIS_TLS_ROOTS"
ENV_PROFILE = "PRAXIS_PROFILE"
ENV_CONFIG = "PRAXIS_CONFIG"


@dataclass(frozen=True)
class Connection:
    """A resolved server address, bearer token and optional TLS roots file."""

    address: str
    token: str | None
    tls_roots: Path | None


def config_path() -> Path:
    """The CLI config file."""
    explicit = os.environ.get(ENV_CONFIG)
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "praxis" / "config.json"


def load_config(path: Path | None = None) -> dict[str, Any]:
    """The config document, empty when the file does not exist."""
    path = path or config_path()
    if not path.exists():
        return {"profiles": {}}
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise usage(f"cannot read {path}: {error}", "CONFIG_INVALID") from error
    if not isinstance(document, dict) or not isinstance(document.get("profiles", {}), dict):
        raise usage(f"{path} is not a praxis CLI config", "CONFIG_INVALID")
    document.setdefault("profiles", {})
    return document


def save_profile(name: str, profile: dict[str, str], make_default: bool) -> Path:
    """Stores a profile (mode 0600) and returns the file's path."""
    path = config_path()
    document = load_config(path)
    document["profiles"][name] = profile
    if make_default or "default_profile" not in document:
        document["default_profile"] = name
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    temporary = path.with_suffix(".tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(json.dumps(document, indent=2) + "\n")
    os.chmod(temporary, 0o600)
    os.replace(temporary, path)
    return path


def resolve(
    address: str | None, token: str | None, tls_roots: str | None, profile: str | None
) -> Connection:
    """Flags win over the environment, which wins over the profile."""
    chosen: dict[str, Any] = {}
    name = profile or os.environ.get(ENV_PROFILE)
    document = load_config()
    if name:
        if name not in document["profiles"]:
            raise CliError("PROFILE_NOT_FOUND", f"no profile {name!r} in {config_path()}", 2)
        chosen = document["profiles"][name]
    elif document.get("default_profile") in document["profiles"]:
        chosen = document["profiles"][document["default_profile"]]
    roots = tls_roots or os.environ.get(ENV_TLS_ROOTS) or chosen.get("tls_roots") or None
    return Connection(
        address=address or os.environ.get(ENV_ADDRESS) or chosen.get("address") or DEFAULT_ADDRESS,
        token=token or os.environ.get(ENV_TOKEN) or chosen.get("token") or None,
        tls_roots=Path(roots) if roots else None,
    )
