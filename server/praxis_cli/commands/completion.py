"""``praxis completion bash|zsh|fish``: the shell's completion script, made by shtab from
the command tree itself (every command, subcommand and flag, and the choices of each)."""

from __future__ import annotations

import argparse
from typing import Any

import shtab

from praxis_cli.commands.common import leaf

SHELLS = ("bash", "zsh", "fish")
_HOW = {
    "bash": 'eval "$(praxis completion bash)"   # in ~/.bashrc',
    "zsh": 'eval "$(praxis completion zsh)"    # in ~/.zshrc (after compinit)',
    "fish": "praxis completion fish > ~/.config/fish/completions/praxis.fish",
}


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    """Adds ``completion``."""
    parser = leaf(
        commands,
        common,
        "completion",
        _completion,
        "print the shell completion script of every praxis command and flag: "
        + "; ".join(f"{shell}: `{how}`" for shell, how in _HOW.items()),
    )
    parser.add_argument("shell", choices=SHELLS, help="the shell to complete in")


def _completion(ctx: Any, args: argparse.Namespace) -> int:
    script = shtab.complete(args.command_tree, shell=args.shell)
    ctx.out.stream.write(script if script.endswith("\n") else script + "\n")
    ctx.out.stream.flush()
    return 0
