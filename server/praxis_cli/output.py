"""Readable output on a terminal, plain text in a pipe, JSON with ``--json``.

Colours and box tables (``rich``) only on a terminal and never with ``NO_COLOR``;
otherwise aligned plain columns. Times are shown in local time; ``--json`` keeps the raw
epoch milliseconds as numbers. Decimals are strings on the wire and printed unchanged.
"""

from __future__ import annotations

import json
import os
import sys
import textwrap
from collections.abc import Sequence
from datetime import datetime
from typing import Any, TextIO

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message
from rich.console import Console
from rich.table import Table

_INTEGERS = {
    FieldDescriptor.TYPE_INT64,
    FieldDescriptor.TYPE_UINT64,
    FieldDescriptor.TYPE_SINT64,
    FieldDescriptor.TYPE_FIXED64,
    FieldDescriptor.TYPE_SFIXED64,
    FieldDescriptor.TYPE_INT32,
    FieldDescriptor.TYPE_UINT32,
    FieldDescriptor.TYPE_SINT32,
    FieldDescriptor.TYPE_FIXED32,
    FieldDescriptor.TYPE_SFIXED32,
}


def _scalar(descriptor: Any, value: Any) -> Any:
    if descriptor.type == FieldDescriptor.TYPE_ENUM:
        names = descriptor.enum_type.values_by_number
        return names[value].name if value in names else int(value)
    if descriptor.type == FieldDescriptor.TYPE_MESSAGE:
        return to_dict(value)
    if descriptor.type in _INTEGERS:
        return int(value)
    if descriptor.type == FieldDescriptor.TYPE_BYTES:
        return value.hex()
    return value


def to_dict(message: Message) -> dict[str, Any]:
    """Every field of ``message`` (defaults included), 64-bit integers kept as numbers."""
    out: dict[str, Any] = {}
    fields: list[Any] = list(message.DESCRIPTOR.fields)
    for descriptor in fields:
        value = getattr(message, descriptor.name)
        if descriptor.message_type is not None and descriptor.message_type.GetOptions().map_entry:
            value_field = descriptor.message_type.fields_by_name["value"]
            out[descriptor.name] = {key: _scalar(value_field, item) for key, item in value.items()}
        elif descriptor.is_repeated:
            out[descriptor.name] = [_scalar(descriptor, item) for item in value]
        elif descriptor.type == FieldDescriptor.TYPE_MESSAGE and not message.HasField(
            descriptor.name
        ):
            out[descriptor.name] = None
        else:
            out[descriptor.name] = _scalar(descriptor, value)
    return out


def local_time(epoch_ms: int) -> str:
    """Epoch milliseconds as local time with the zone; ``-`` for 0."""
    if not epoch_ms:
        return "-"
    moment = datetime.fromtimestamp(epoch_ms / 1000).astimezone()
    return moment.strftime("%Y-%m-%d %H:%M:%S.") + f"{epoch_ms % 1000:03d} " + moment.strftime("%Z")


def enum_name(text: str, prefix: str) -> str:
    """``RUN_STATE_COMPLETED`` -> ``COMPLETED``."""
    return text[len(prefix) :] if text.startswith(prefix) else text


class Output:
    """Where and how a command prints."""

    def __init__(self, as_json: bool, stream: TextIO | None = None) -> None:
        self.as_json = as_json
        self.stream = stream or sys.stdout
        self.tty = self.stream.isatty()
        self.rich = self.tty and not os.environ.get("NO_COLOR") and not as_json
        self.console = Console(
            file=self.stream,
            no_color=not self.rich,
            highlight=False,
            force_terminal=self.rich,
            soft_wrap=not self.tty,
        )

    def json(self, value: Any) -> None:
        """Prints one JSON document."""
        print(json.dumps(value, indent=2, ensure_ascii=False), file=self.stream, flush=True)

    def json_line(self, value: Any) -> None:
        """Prints one compact JSON document on its own line (for streams)."""
        print(json.dumps(value, ensure_ascii=False), file=self.stream, flush=True)

    def line(self, text: str = "", style: str = "") -> None:
        """Prints a line, styled on a colour terminal."""
        if self.rich and style:
            self.console.print(text, style=style, markup=False, highlight=False)
        else:
            print(text, file=self.stream, flush=True)

    def warn(self, kind: str, message: str) -> None:
        """A warning on stderr, ``warning: KIND: message`` wrapped at 80 columns: stdout
        (and ``--json``) stays what scripts read."""
        text = textwrap.fill(f"warning: {kind}: {message}", width=80, subsequent_indent="  ")
        print(text, file=sys.stderr, flush=True)

    def fields(self, rows: Sequence[tuple[str, Any]]) -> None:
        """``name: value`` lines, aligned."""
        width = max((len(name) for name, _ in rows), default=0)
        for name, value in rows:
            label = f"{name}:".ljust(width + 1)
            if self.rich:
                self.console.print(f"[bold]{label}[/bold] ", end="")
                self.console.print(str(value), markup=False, highlight=False)
            else:
                print(f"{label} {value}", file=self.stream)
        self.stream.flush()

    def table(self, columns: Sequence[str], rows: Sequence[Sequence[Any]], title: str = "") -> None:
        """A table: boxed and coloured on a terminal, aligned plain columns otherwise."""
        cells = [[str(value) for value in row] for row in rows]
        if self.rich:
            table = Table(title=title or None, header_style="bold cyan")
            for column in columns:
                table.add_column(column, overflow="fold")
            for row in cells:
                table.add_row(*row)
            self.console.print(table)
            return
        if title:
            print(title, file=self.stream)
        widths = [
            max([len(column)] + [len(row[i]) for row in cells]) for i, column in enumerate(columns)
        ]
        for row in [list(columns), *cells]:
            print(
                "  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip(),
                file=self.stream,
            )
        self.stream.flush()
