"""Helpers shared by the command modules: parsing refs, durations, JSON input."""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import grpc

from aiws.engine.v1 import approval_pb2, common_pb2, registry_pb2
from praxis_cli.errors import CONFLICT, CliError, usage
from praxis_cli.parser import Parser

_DURATION = re.compile(r"^(\d+)(ms|s|m|h|d)$")
_UNITS = {"ms": 1, "s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000}


def leaf(
    commands: Any, common: argparse.ArgumentParser, name: str, handler: Any, help_text: str
) -> argparse.ArgumentParser:
    """A command parser with the common options and its handler."""
    parser: argparse.ArgumentParser = commands.add_parser(
        name, help=help_text, description=help_text, parents=[common]
    )
    parser.set_defaults(handler=handler)
    return parser


def group(commands: Any, name: str, help_text: str) -> Any:
    """A command group (``praxis principals ...``)."""
    parser = commands.add_parser(name, help=help_text, description=help_text)
    return parser.add_subparsers(
        dest=f"{name}_command", metavar="COMMAND", parser_class=Parser, required=True
    )


def parse_ref(text: str) -> common_pb2.WorkflowRef:
    """``WORK_ORDER/RUN`` as a ref."""
    work_order, slash, run = text.partition("/")
    if not slash or not work_order or not run:
        raise usage(f"{text!r} is not a ref: write WORK_ORDER/RUN")
    return common_pb2.WorkflowRef(work_order_id=work_order, run_id=run)


def ref_text(ref: common_pb2.WorkflowRef) -> str:
    """A ref as ``WORK_ORDER/RUN``."""
    return f"{ref.work_order_id}/{ref.run_id}"


def now_ms() -> int:
    """The local clock, in epoch milliseconds (for expiries the caller chooses)."""
    return int(time.time() * 1000)


def _duration(text: str) -> int | None:
    """``90s``, ``10m``, ``2h``, ``7d`` in milliseconds, or ``None`` for anything else."""
    match = _DURATION.match(text.strip())
    return None if match is None else int(match.group(1)) * _UNITS[match.group(2)]


def duration_ms(text: str, field: str) -> int:
    """``90s``, ``15m``, ``1h``, ``1d`` or plain ms."""
    if text.isdigit():
        return int(text)
    found = _duration(text)
    if found is None:
        raise usage(f"{field}: {text!r} is not a duration (90s, 15m, 1h, 1d)", "TIME_INVALID")
    return found


def parse_past_moment(text: str, field: str) -> int:
    """A duration ago (``90s``, ``10m``, ``2h``, ``7d``), an ISO time or epoch ms."""
    ago = _duration(text)
    if ago is not None:
        return now_ms() - ago
    return parse_moment(text, field)


def parse_moment(text: str, field: str) -> int:
    """A duration from now (``90s``, ``10m``, ``2h``, ``7d``), an ISO time or epoch ms."""
    ahead = _duration(text)
    if ahead is not None:
        return now_ms() + ahead
    if text.isdigit():
        return int(text)
    try:
        moment = datetime.fromisoformat(text)
    except ValueError as error:
        raise usage(
            f"{field}: {text!r} is not a duration (10m, 2h, 7d), an ISO time or epoch ms",
            "TIME_INVALID",
        ) from error
    if moment.tzinfo is None:
        moment = moment.astimezone()
    return int(moment.timestamp() * 1000)


def read_text(path: str) -> str:
    """A file's text (``-`` reads stdin)."""
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise usage(f"cannot read {path}: {error.strerror}", "FILE_UNREADABLE") from error


def json_argument(text: str | None, path: str | None, field: str, default: str = "") -> str:
    """A JSON document given inline or as a file; checked to be JSON before sending."""
    if text is not None and path is not None:
        raise usage(f"give {field} inline or as a file, not both")
    document = read_text(path) if path is not None else text
    if document is None:
        return default
    try:
        json.loads(document)
    except ValueError as error:
        raise usage(f"{field} is not JSON: {error}", "DOCUMENT_MALFORMED") from error
    return document


def pretty_json(text: str) -> str:
    """A JSON document indented for reading (unchanged when it is not JSON)."""
    try:
        return json.dumps(json.loads(text), indent=2, sort_keys=True, ensure_ascii=False)
    except ValueError:
        return text


# --- decisions shared by the registry and the waiting commands ---


def epochs_of(ctx: Any, work_order_id: str) -> common_pb2.Epochs:
    request = registry_pb2.GetEpochsRequest(work_order_id=work_order_id)
    return ctx.call(ctx.client.registry.GetEpochs, request).epochs  # type: ignore[no-any-return]


def default_approval_id(ctx: Any, digest: str) -> str:
    """Derived from the digest and the caller's token: a retried decision names the same
    approval (and so its request replays) instead of minting a second one."""
    token = ctx.connection().token or ""
    caller = hashlib.sha256(token.encode("utf-8")).hexdigest()[:8]
    return f"ap-{digest[7:23]}-{caller}"


def existing_approval(ctx: Any, approval_id: str, digest: str) -> Any | None:
    """The approval with this id when it approves ``digest``, else ``None``."""
    try:
        existing = ctx.call(
            ctx.client.approvals.GetApproval,
            approval_pb2.GetApprovalRequest(approval_id=approval_id),
        ).approval
    except grpc.RpcError as error:
        if error.code() is not grpc.StatusCode.NOT_FOUND:
            raise
        return None
    return existing if existing.material_digest == digest else None


DEFAULT_APPROVAL_TTL = "1h"


def approval_args(parser: argparse.ArgumentParser) -> None:
    """The options of a command that approves material: its expiry and id."""
    parser.add_argument(
        "--expires",
        default=DEFAULT_APPROVAL_TTL,
        metavar="WHEN",
        help="when the approval expires (default 1h; at most 7d)",
    )
    parser.add_argument("--approval-id", help="the approval's id (default: generated)")


def create_approval(
    ctx: Any, args: argparse.Namespace, digest: str, work_order: str, purpose: str = ""
) -> Any:
    """Approves ``digest`` (for ``purpose``, the action's, when it has one); a retry by the
    same credential reuses its earlier approval."""
    approval_id = args.approval_id
    if not approval_id:
        approval_id = default_approval_id(ctx, digest)
        existing = existing_approval(ctx, approval_id, digest)
        if existing is not None:
            return existing
    request = approval_pb2.CreateApprovalRequest(
        approval_id=approval_id,
        material_digest=digest,
        expires_at_ms=parse_moment(args.expires, "--expires"),
        work_order_id=work_order,
        purpose=purpose,
    )
    return ctx.call(ctx.client.approvals.CreateApproval, request).approval


def check_digest(expected: str, actual: str) -> None:
    """Refuses a decision on material that changed since it was reviewed."""
    if expected != actual:
        raise CliError(
            "MATERIAL_CHANGED",
            f"the material now has digest {actual}, not the reviewed {expected}: review again",
            CONFLICT,
        )


def show_warnings(ctx: Any, warnings: Any) -> None:
    """Prints each ``DefinitionWarning`` of an answer on stderr (never a failure)."""
    for warning in warnings:
        kind = common_pb2.DefinitionWarningKind.Name(warning.kind)
        ctx.out.warn(kind.removeprefix("DEFINITION_WARNING_KIND_"), warning.message)
