"""``praxis login`` and ``praxis principals add|list|show|revoke|rotate``."""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from typing import Any

import grpc

from aiws.engine.v1 import common_pb2
from aiws.engine.v1 import principal_pb2 as pb
from praxis_cli import config
from praxis_cli.commands.common import group, leaf, parse_moment, read_text
from praxis_cli.errors import CONFLICT, CliError, from_rpc, usage
from praxis_cli.output import Column, free_text, ident, local_time, to_dict
from praxis_client.conventions import enum_name

MANAGE_ACTION = "principal.manage"
_KINDS = {
    "human": common_pb2.PRINCIPAL_KIND_HUMAN,
    "agent": common_pb2.PRINCIPAL_KIND_AGENT,
    "service": common_pb2.PRINCIPAL_KIND_SERVICE,
}


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    """Adds ``login`` and the ``principals`` group."""
    login = leaf(
        commands,
        common,
        "login",
        _login,
        "store a connection profile (address, token, TLS roots) with mode 0600. The token "
        "comes from --token-file, --token or the environment; else, on a terminal, it is "
        "asked for without echo",
    )
    login.add_argument("--name", default="default", help="the profile's name (default: default)")
    login.add_argument(
        "--token-file",
        metavar="FILE",
        help="read the token from FILE (- for stdin), keeping it out of process listings",
    )
    login.add_argument(
        "--no-default", action="store_true", help="do not make it the default profile"
    )
    principals = group(commands, "principals", "administer principals and their grants")
    add = leaf(principals, common, "add", _add, "add a principal; prints its token once")
    add.add_argument("name", help="the new principal's id")
    add.add_argument("--kind", required=True, choices=sorted(_KINDS))
    add.add_argument(
        "--grant",
        action="append",
        required=True,
        metavar="ACTION[:PATTERN]",
        help="an action (or prefix*) on work orders matching PATTERN (default *); repeat for more",
    )
    add.add_argument(
        "--expires",
        metavar="WHEN",
        help="expiry: a duration (30d), an ISO time or epoch ms; default never",
    )
    add.add_argument(
        "--max-spend",
        metavar="MICROCREDITS",
        help="cap what runs it starts may spend (a canonical decimal)",
    )
    add.add_argument(
        "--purpose",
        action="append",
        default=[],
        metavar="PURPOSE",
        help="limit the grants to actions of this purpose (repeatable; default: any purpose)",
    )
    add.add_argument(
        "--not-before",
        metavar="WHEN",
        help="the grants apply from: a duration from now (1h), an ISO time or epoch ms",
    )
    add.add_argument(
        "--not-after",
        metavar="WHEN",
        help="the grants stop applying at: a duration from now (30d), an ISO time or epoch ms",
    )
    listing = leaf(principals, common, "list", _list, "list principals")
    listing.add_argument("--all", action="store_true", help="include revoked principals")
    listing.add_argument("--limit", type=int, default=0, help="page size (server default 100)")
    listing.add_argument("--page-token", default="", help="continue a previous listing")
    show = leaf(principals, common, "show", _show, "show a principal and its audit history")
    show.add_argument("name")
    revoke = leaf(
        principals,
        common,
        "revoke",
        _revoke,
        "revoke a principal for good; its token is refused at once. Refused when it is "
        "already revoked, or when it is the last administrator (an active human allowed "
        f"{MANAGE_ACTION} on every work order) unless --force",
    )
    revoke.add_argument("name")
    revoke.add_argument("--reason", default="", help="why (recorded)")
    revoke.add_argument(
        "--expected-version",
        type=int,
        default=0,
        help="fail with VERSION_CONFLICT unless the principal is at this version "
        "(default: the version read just before)",
    )
    revoke.add_argument(
        "--force",
        action="store_true",
        help="revoke even the last administrator, leaving no one to manage principals",
    )
    rotate = leaf(
        principals,
        common,
        "rotate",
        _rotate,
        "replace a principal's token; prints the new token once",
    )
    rotate.add_argument("name")
    rotate.add_argument(
        "--expected-version",
        type=int,
        default=0,
        help="fail with VERSION_CONFLICT unless the principal is at this version",
    )


def _login_token(args: argparse.Namespace, target: config.Connection) -> str | None:
    """The token to store: from --token-file, else --token or the environment, else asked
    for on a terminal (no echo), else the one the connection resolves (a profile's)."""
    if args.token_file is not None:
        if getattr(args, "token", None):
            raise usage("give the token with --token or --token-file, not both")
        token = read_text(args.token_file).strip()
        if not token:
            raise usage(f"--token-file {args.token_file}: the token is empty")
        return token
    if getattr(args, "token", None) or os.environ.get(config.ENV_TOKEN):
        return target.token
    if sys.stdin.isatty():
        try:
            typed = getpass.getpass(f"token for {target.address} (input hidden; empty: none): ")
        except EOFError as error:
            raise usage("no token was entered") from error
        return typed.strip() or None
    return target.token


def _login(ctx: Any, args: argparse.Namespace) -> int:
    target = ctx.connection()
    token = _login_token(args, target)
    profile: dict[str, Any] = {"address": target.address}
    if token:
        profile["token"] = token
    if target.tls_roots:
        profile["tls_roots"] = str(target.tls_roots.resolve())
    if target.insecure:
        profile["insecure"] = True
    path = config.save_profile(args.name, profile, not args.no_default)
    if ctx.out.as_json:
        ctx.out.json({"profile": args.name, "path": str(path), "address": target.address})
    else:
        ctx.out.line(f"stored profile {args.name!r} ({target.address}) in {path}")
    return 0


def grants_of(
    specs: list[str],
    max_spend: str | None,
    purposes: list[str] | None = None,
    window: tuple[int, int] = (0, 0),
) -> list[pb.Grant]:
    """``ACTION[:PATTERN]`` flags as grants, one grant per work-order pattern, each with
    the purposes and the validity window given (``(not_before_ms, not_after_ms)``)."""
    by_pattern: dict[str, list[str]] = {}
    for spec in specs:
        action, _, pattern = spec.partition(":")
        if not action:
            raise usage(f"--grant {spec!r}: the action is empty", "GRANT_INVALID")
        by_pattern.setdefault(pattern or "*", []).append(action)
    return [
        pb.Grant(
            actions=actions,
            work_orders=[pattern],
            max_spend_microcredits=max_spend or "",
            purposes=purposes or [],
            not_before_ms=window[0],
            not_after_ms=window[1],
        )
        for pattern, actions in by_pattern.items()
    ]


def _grant_text(g: pb.Grant) -> str:
    text = f"{', '.join(g.actions)} on {', '.join(g.work_orders) or '*'}"
    if g.max_spend_microcredits:
        text += f" (cap {g.max_spend_microcredits})"
    if g.purposes:
        text += f" for {', '.join(g.purposes)}"
    if g.not_before_ms:
        text += f" from {local_time(g.not_before_ms)}"
    if g.not_after_ms:
        text += f" until {local_time(g.not_after_ms)}"
    return text


def _row(p: pb.Principal) -> list[str]:
    grants = "; ".join(_grant_text(g) for g in p.grants)
    return [
        p.principal_id,
        enum_name(common_pb2.PrincipalKind.Name(p.kind), "PRINCIPAL_KIND_"),
        enum_name(pb.PrincipalState.Name(p.state), "PRINCIPAL_STATE_"),
        str(p.version),
        grants,
        local_time(p.expires_at_ms) if p.expires_at_ms else "never",
        p.token_fingerprint,
    ]


_COLUMNS = [
    ident("ID"),
    Column("KIND"),
    Column("STATE"),
    Column("VERSION", optional=True),
    free_text("GRANTS"),
    Column("EXPIRES", optional=True),
    Column("TOKEN", optional=True),
]


def _print_token(ctx: Any, principal: pb.Principal, token: str, verb: str) -> None:
    if ctx.out.as_json:
        ctx.out.json({"principal": to_dict(principal), "token": token})
        return
    ctx.out.line(f"{verb} principal {principal.principal_id!r} (version {principal.version})")
    ctx.out.line(f"token: {token}", "bold yellow")
    print("praxis: store this token now; it is not shown again", file=sys.stderr)


def _add(ctx: Any, args: argparse.Namespace) -> int:
    request = pb.CreatePrincipalRequest(
        principal_id=args.name,
        kind=_KINDS[args.kind],
        grants=grants_of(
            args.grant,
            args.max_spend,
            args.purpose,
            (
                parse_moment(args.not_before, "--not-before") if args.not_before else 0,
                parse_moment(args.not_after, "--not-after") if args.not_after else 0,
            ),
        ),
        expires_at_ms=parse_moment(args.expires, "--expires") if args.expires else 0,
    )
    response = ctx.call(ctx.client.principals.CreatePrincipal, request)
    _print_token(ctx, response.principal, response.token, "added")
    return 0


def _list(ctx: Any, args: argparse.Namespace) -> int:
    response = ctx.call(
        ctx.client.principals.ListPrincipals,
        pb.ListPrincipalsRequest(
            page_size=args.limit, page_token=args.page_token, include_revoked=args.all
        ),
    )
    if ctx.out.as_json:
        ctx.out.json(to_dict(response))
        return 0
    ctx.out.table(_COLUMNS, [_row(p) for p in response.principals])
    if response.next_page_token:
        ctx.out.line(f"more: --page-token {response.next_page_token}")
    return 0


def _show(ctx: Any, args: argparse.Namespace) -> int:
    principal = ctx.call(
        ctx.client.principals.GetPrincipal, pb.GetPrincipalRequest(principal_id=args.name)
    ).principal
    history = ctx.call(
        ctx.client.principals.ListPrincipalHistory,
        pb.ListPrincipalHistoryRequest(principal_id=args.name, limit=1000),
    )
    if ctx.out.as_json:
        ctx.out.json({"principal": to_dict(principal), "history": to_dict(history)["events"]})
        return 0
    values = dict(zip((c.header for c in _COLUMNS), _row(principal), strict=True))
    ctx.out.fields(
        [
            ("id", values["ID"]),
            ("kind", values["KIND"]),
            ("state", values["STATE"]),
            ("version", values["VERSION"]),
            ("grants", values["GRANTS"]),
            ("expires", values["EXPIRES"]),
            ("token", values["TOKEN"]),
            ("created", f"{local_time(principal.created_at_ms)} by {principal.created_by}"),
            ("token issued", local_time(principal.token_issued_at_ms)),
        ]
        + (
            [
                (
                    "revoked",
                    f"{local_time(principal.revoked_at_ms)} by {principal.revoked_by}: "
                    f"{principal.revoke_reason}",
                )
            ]
            if principal.revoked_at_ms
            else []
        )
    )
    ctx.out.table(
        ["SEQ", "EVENT", "VERSION", "BY", "AT", "TOKEN", "REASON"],
        [
            [
                str(e.seq),
                enum_name(pb.PrincipalEventKind.Name(e.kind), "PRINCIPAL_EVENT_KIND_"),
                str(e.version),
                e.actor_id,
                local_time(e.at_ms),
                e.token_fingerprint,
                e.reason,
            ]
            for e in history.events
        ],
        title="history",
    )
    return 0


def _revoke(ctx: Any, args: argparse.Namespace) -> int:
    current = ctx.call(
        ctx.client.principals.GetPrincipal, pb.GetPrincipalRequest(principal_id=args.name)
    ).principal
    if current.state == pb.PRINCIPAL_STATE_REVOKED:
        raise already_revoked(current, args.reason)
    if not args.force and is_administrator(current) and not _other_administrators(ctx, args.name):
        raise CliError(
            "LAST_ADMINISTRATOR",
            f"{args.name!r} is the last administrator (an active human allowed "
            f"{MANAGE_ACTION} on every work order): revoked, no one could add, rotate or "
            "revoke principals any more. Add another administrator first, or pass --force",
            CONFLICT,
        )
    # Against the version just read: a change since (another revoke) is a conflict.
    expected = args.expected_version or current.version
    request = pb.RevokePrincipalRequest(
        principal_id=args.name, reason=args.reason, expected_version=expected
    )
    try:
        principal = ctx.call(ctx.client.principals.RevokePrincipal, request).principal
    except grpc.RpcError as error:
        if args.expected_version or from_rpc(error).reason != "VERSION_CONFLICT":
            raise
        now = ctx.call(
            ctx.client.principals.GetPrincipal, pb.GetPrincipalRequest(principal_id=args.name)
        ).principal
        if now.state != pb.PRINCIPAL_STATE_REVOKED:
            raise
        raise already_revoked(now, args.reason) from error
    if ctx.out.as_json:
        ctx.out.json(to_dict(principal))
    else:
        ctx.out.line(f"revoked principal {principal.principal_id!r} (version {principal.version})")
    return 0


def already_revoked(principal: pb.Principal, reason: str) -> CliError:
    """The error of revoking a revoked principal: when, by whom and why it was."""
    first = f"reason {principal.revoke_reason!r}" if principal.revoke_reason else "no reason"
    dropped = (
        f"; the reason {reason!r} is not recorded"
        if reason and reason != principal.revoke_reason
        else ""
    )
    return CliError(
        "PRINCIPAL_ALREADY_REVOKED",
        f"principal {principal.principal_id!r} was already revoked at "
        f"{local_time(principal.revoked_at_ms)} by {principal.revoked_by or '?'} ({first}); "
        f"nothing changed{dropped}",
        CONFLICT,
    )


def is_administrator(principal: pb.Principal) -> bool:
    """An active human with a grant of ``principal.manage`` on every work order (``*``):
    what the server asks of whoever adds, rotates or revokes principals."""
    return (
        principal.kind == common_pb2.PRINCIPAL_KIND_HUMAN
        and principal.state == pb.PRINCIPAL_STATE_ACTIVE
        and any(
            _matches(grant.actions, MANAGE_ACTION) and _matches(grant.work_orders or ["*"], "*")
            for grant in principal.grants
        )
    )


def _matches(patterns: Any, name: str) -> bool:
    """A grant pattern is an exact name or a ``prefix*``."""
    return any(p == name or (p.endswith("*") and name.startswith(p[:-1])) for p in patterns)


def _other_administrators(ctx: Any, principal_id: str) -> list[str]:
    """The ids of the administrators other than ``principal_id`` (every page)."""
    found: list[str] = []
    token = ""
    while True:
        page = ctx.call(
            ctx.client.principals.ListPrincipals,
            pb.ListPrincipalsRequest(page_size=1000, page_token=token),
        )
        found += [
            p.principal_id
            for p in page.principals
            if p.principal_id != principal_id and is_administrator(p)
        ]
        token = page.next_page_token
        if found or not token:
            return found


def _rotate(ctx: Any, args: argparse.Namespace) -> int:
    response = ctx.call(
        ctx.client.principals.RotatePrincipalToken,
        pb.RotatePrincipalTokenRequest(
            principal_id=args.name, expected_version=args.expected_version
        ),
    )
    _print_token(ctx, response.principal, response.token, "rotated the token of")
    return 0
