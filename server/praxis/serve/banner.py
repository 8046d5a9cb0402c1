"""What ``praxis serve`` tells a person once it serves with its console: where the console
is, how to sign in, and the next three commands.

On a terminal (stderr) a readable block; otherwise one log line with the console's URL
(never the sign-in link: logs are kept and shared). Nothing under ``--log-level warning``
or above. The token itself is never printed: the sign-in link holds a one-time code (10
minutes, single use) that the console exchanges for the local human's session.
"""

from __future__ import annotations

import argparse
import logging

from praxis.observability import logs

log = logging.getLogger("praxis")


def next_commands(args: argparse.Namespace) -> list[tuple[str, str]]:
    """The three commands a newcomer runs next, with what each does."""
    credentials = args.data_dir / "credentials.json"
    return [
        (
            "praxis login --name local",
            f"store local-human's token (from {credentials}) as your CLI profile",
        ),
        ("praxis runs start -f DEFINITION.json --watch", "start a run and follow it"),
        ("praxis inbox", "what waits for a human (also the console's first page)"),
    ]


def lines(args: argparse.Namespace, serving: str, console_url: str, signin_link: str) -> list[str]:
    """The block printed on a terminal (``serving``: the servers' ``host:port``)."""
    out = [
        "",
        f"Praxis serves gRPC on {serving}.",
        f"  Console   {console_url}",
    ]
    if signin_link:
        out.append(f"  Sign in   {signin_link}")
        out.append("            (as local-human; the link works once, for 10 minutes)")
    else:
        out.append("  Sign in   with a human principal's token on the sign-in page")
    out += ["", "Next:"]
    width = max(len(command) for command, _ in next_commands(args))
    out += [f"  {command.ljust(width)}   # {what}" for command, what in next_commands(args)]
    if getattr(args, "console_default", False):
        out += ["", "(--no-console serves no console; --console HOST:PORT serves it elsewhere)"]
    return [*out, ""]


def show(args: argparse.Namespace, serving: str, console_url: str, signin_link: str) -> None:
    """Prints the block on a terminal, else logs one line; nothing above INFO."""
    if not log.isEnabledFor(logging.INFO):
        return
    stream = logs.console()
    if stream.isatty():
        print("\n".join(lines(args, serving, console_url, signin_link)), file=stream, flush=True)
        return
    log.info(
        "console at %s: sign in with a human principal's token",
        console_url,
        extra={"console": console_url},
    )
