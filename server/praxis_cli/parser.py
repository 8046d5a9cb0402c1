"""The argument parser of every ``praxis`` command."""

from __future__ import annotations

import argparse
from typing import NoReturn

from praxis_cli.errors import USAGE, CliError


class Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one ``error: USAGE: ...`` line."""

    def error(self, message: str) -> NoReturn:
        raise CliError("USAGE", f"{message} (see '{self.prog} --help')", USAGE)
