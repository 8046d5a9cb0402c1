"""Where to connect: flags, then environment, then a named profile, then the default.

Profiles live in ``$PRAXIS_CONFIG`` or ``<user config dir>/praxis/config.json``
(``$XDG_CONFIG_HOME`` or ``~/.config``), written with mode 0600 (in folders it creates
0700, whatever the umask) because they hold tokens::

    {"default_profile": "prod",
     "profiles": {"prod": {"address": "praxis.example:443", "token": "prx_...",
                           "tls_roots": "/etc/ssl/praxis-ca.pem"}}}
"""

from __future__ import annotations

import ipaddress
import json
import os
import re
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
ENV_INSECURE = "PRAXIS_INSECURE"
# gRPC target schemes passed through as given (``unix:/run/praxis.sock``).
_SCHEMES = ("unix:", "unix-abstract:", "dns:", "ipv4:", "ipv6:")
_HOST = re.compile(r"^(?:[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?|\[[0-9A-Fa-f:.%A-Za-z]+\])$")
_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://", re.IGNORECASE)


@dataclass(frozen=True)
class Connection:
    """A resolved server address, bearer token, optional TLS roots file, and whether a
    token may travel in plaintext to another host."""

    address: str
    token: str | None
    tls_roots: Path | None
    insecure: bool = False


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


def save_profile(name: str, profile: dict[str, Any], make_default: bool) -> Path:
    """Stores a profile (mode 0600) and returns the file's path."""
    path = config_path()
    document = load_config(path)
    document["profiles"][name] = profile
    if make_default or "default_profile" not in document:
        document["default_profile"] = name
    make_private_folders(path.parent)
    temporary = path.with_suffix(".tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(json.dumps(document, indent=2) + "\n")
    os.chmod(temporary, 0o600)
    os.replace(temporary, path)
    return path


def make_private_folders(folder: Path) -> None:
    """Creates ``folder`` and its missing parents with mode 0700, whatever the umask
    (``mkdir -p`` would make the parents 0777 under umask 000); existing ones are left."""
    missing: list[Path] = []
    while not folder.exists():
        missing.append(folder)
        if folder.parent == folder:
            break
        folder = folder.parent
    for created in reversed(missing):
        try:
            os.mkdir(created, 0o700)
        except FileExistsError:  # made meanwhile by someone else: theirs to keep
            continue
        except OSError as error:
            raise usage(f"cannot create {created}: {error.strerror}", "CONFIG_INVALID") from error
        os.chmod(created, 0o700)  # mkdir's mode is masked by the umask


def check_address(address: str, source: str) -> str:
    """``address`` when it is ``HOST:PORT`` (or a gRPC ``unix:`` target); else a usage
    error saying what to type. ``source`` names where it came from (``--address``)."""
    if address.startswith(_SCHEMES):
        return address
    problem = f"{source} must be HOST:PORT (got {address!r})"
    url = _URL.match(address)
    if url:
        rest = address[url.end() :].split("/", 1)[0]
        target = rest if _well_formed(rest) else "HOST:PORT"
        tls = (
            " and verify the server with --tls-roots PEM"
            if url.group().lower() == "https://"
            else ""
        )
        raise usage(f"{problem}: drop the scheme, write {target}{tls}")
    if address.count(":") > 1 and not address.startswith("["):
        host, _, port = address.rpartition(":")
        raise usage(f"{problem}: put an IPv6 host in brackets, write [{host}]:{port}")
    if not _well_formed(address):
        raise usage(f"{problem}: write HOST:PORT with a port from 1 to 65535, e.g. "
                    f"{DEFAULT_ADDRESS} or praxis.example:443")  # fmt: skip
    return address


def _well_formed(address: str) -> bool:
    host, colon, port = address.rpartition(":")
    if not colon or not _HOST.match(host) or not port.isdigit() or not 0 < int(port) < 65536:
        return False
    if host.startswith("["):
        try:
            ipaddress.IPv6Address(host[1:-1].split("%", 1)[0])
        except ValueError:
            return False
    return True


def _flag(value: Any) -> bool:
    return str(value).strip().lower() in ("1", "true", "yes", "on")


def resolve(
    address: str | None,
    token: str | None,
    tls_roots: str | None,
    profile: str | None,
    insecure: bool = False,
) -> Connection:
    """Flags win over the environment, which wins over the profile."""
    chosen: dict[str, Any] = {}
    name = profile or os.environ.get(ENV_PROFILE)
    document = load_config()
    source = f"the address of profile {name!r} in {config_path()}"
    if name:
        if name not in document["profiles"]:
            raise CliError("PROFILE_NOT_FOUND", f"no profile {name!r} in {config_path()}", 2)
        chosen = document["profiles"][name]
    elif document.get("default_profile") in document["profiles"]:
        chosen = document["profiles"][document["default_profile"]]
        source = f"the address of profile {document['default_profile']!r} in {config_path()}"
    roots = tls_roots or os.environ.get(ENV_TLS_ROOTS) or chosen.get("tls_roots") or None
    if address:
        source = "--address"
    elif os.environ.get(ENV_ADDRESS):
        address, source = os.environ[ENV_ADDRESS], ENV_ADDRESS
    else:
        address = chosen.get("address") or DEFAULT_ADDRESS
    return Connection(
        address=check_address(str(address), source),
        token=token or os.environ.get(ENV_TOKEN) or chosen.get("token") or None,
        tls_roots=Path(roots) if roots else None,
        insecure=insecure
        or _flag(os.environ.get(ENV_INSECURE, ""))
        or _flag(chosen.get("insecure")),
    )
