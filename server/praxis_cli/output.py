"""Readable output on a terminal, plain text in a pipe, JSON with ``--json``.

Colours and box tables (``rich``) only on a terminal and never with ``NO_COLOR``;
otherwise aligned plain columns. Times are shown in local time; ``--json`` keeps the raw
epoch milliseconds as numbers. Decimals are strings on the wire and printed unchanged.

On a terminal a table fits its width (:func:`fit`): an id is never broken nor shortened,
free text is cut with ``…``, and optional columns are left out (named under the table)
when even that is not enough; ``--wide`` (or output into a pipe) prints every column in
full, and ``--json`` every field.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, TextIO

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text

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


ColumnKind = Literal["id", "text", "value"]
MIN_TEXT = 12  # a free-text column is never cut narrower than this (or its header)


@dataclass(frozen=True)
class Column:
    """A table column and what may happen to it on a narrow terminal.

    Attributes:
        header: The column's title.
        kind: ``id`` is never broken nor shortened (it must stay copyable); ``text`` is
            free text, cut with ``…`` to fit; ``value`` is a short value kept whole.
        optional: Left out (the rightmost first) when the table does not fit otherwise.
    """

    header: str
    kind: ColumnKind = "value"
    optional: bool = False


def ident(header: str, optional: bool = False) -> Column:
    """An id column: never broken, never shortened."""
    return Column(header, "id", optional)


def free_text(header: str, optional: bool = False) -> Column:
    """A free-text column: cut with ``…`` on a narrow terminal."""
    return Column(header, "text", optional)


@dataclass(frozen=True)
class Fit:
    """How a table fits a width: the columns kept (indexes), each one's width, the
    headers of the columns left out, and whether it fits at all (a row of ids wider than
    the terminal is printed whole, and the terminal wraps it)."""

    kept: tuple[int, ...]
    widths: tuple[int, ...]
    hidden: tuple[str, ...]
    fits: bool = True


def _natural(columns: Sequence[Column], cells: Sequence[Sequence[str]]) -> list[int]:
    return [
        max([cell_len(column.header)] + [cell_len(row[i]) for row in cells])
        for i, column in enumerate(columns)
    ]


def _shrink(
    columns: Sequence[Column], natural: list[int], kept: list[int], excess: int, floor: int
) -> tuple[dict[int, int], int]:
    """Free-text columns give up cells, the widest first, down to ``floor`` (never below
    their header); returns the widths and what is still in excess."""
    widths = {i: natural[i] for i in kept}
    for i in sorted(kept, key=lambda i: -natural[i]):
        if excess <= 0:
            break
        if columns[i].kind == "text":
            least = max(min(floor, natural[i]), cell_len(columns[i].header))
            give = min(excess, widths[i] - least)
            widths[i] -= give
            excess -= give
    return widths, excess


def fit(
    columns: Sequence[Column],
    cells: Sequence[Sequence[str]],
    width: int,
    per_column: int,
    fixed: int,
) -> Fit:
    """Fits a table into ``width`` cells (pure): free-text columns shrink first, down to
    ``MIN_TEXT``; then optional columns go, the rightmost first; then free text shrinks to
    its header. Ids and values are never cut: a table that still does not fit keeps them
    whole (``fits`` is false). ``per_column`` and ``fixed`` are the cells a column's
    borders and padding take and those the table's edges take."""
    natural = _natural(columns, cells)
    kept = list(range(len(columns)))
    hidden: list[str] = []
    while True:
        room = width - per_column * len(kept) - fixed
        widths, excess = _shrink(
            columns, natural, kept, sum(natural[i] for i in kept) - room, MIN_TEXT
        )
        optional = [i for i in kept if columns[i].optional]
        if excess <= 0 or not optional:
            break
        kept.remove(optional[-1])
        hidden.insert(0, columns[optional[-1]].header)
    if excess > 0:
        widths, excess = _shrink(columns, natural, kept, sum(natural[i] for i in kept) - room, 0)
    return Fit(tuple(kept), tuple(widths[i] for i in kept), tuple(hidden), excess <= 0)


def cut(value: str, width: int) -> str:
    """``value`` in at most ``width`` cells, ending in ``…`` when cut."""
    if cell_len(value) <= width:
        return value
    shortened = Text(value)
    shortened.truncate(width, overflow="ellipsis")
    return shortened.plain


def _wrapped(value: str, room: int) -> list[str]:
    """``value``'s lines wrapped at spaces into ``room`` cells, never inside a word."""
    pieces: list[str] = []
    for line in value.splitlines() or [""]:
        pieces += textwrap.wrap(line, room, break_long_words=False, break_on_hyphens=False) or [""]
    return pieces


def terminal_width() -> int:
    """The terminal's width in cells (``COLUMNS`` first, as the standard library reads it)."""
    return shutil.get_terminal_size().columns


class Output:
    """Where and how a command prints."""

    def __init__(self, as_json: bool, stream: TextIO | None = None, wide: bool = False) -> None:
        self.as_json = as_json
        self.wide = wide
        self.stream = stream or sys.stdout
        self.tty = self.stream.isatty()
        self.rich = self.tty and not os.environ.get("NO_COLOR") and not as_json
        self.console = Console(
            file=self.stream,
            no_color=not self.rich,
            highlight=False,
            force_terminal=self.rich,
            # Lines are never folded by rich: an id stays one unbroken string (the terminal
            # may wrap a long line on screen; copying it gives the id whole).
            soft_wrap=True,
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
        """``name: value`` lines, aligned; on a terminal a long value wraps between words
        under its first line (an id, a word of its own, is never broken)."""
        width = max((len(name) for name, _ in rows), default=0)
        room = terminal_width() - width - 2 if self.tty and not self.wide else 0
        for name, value in rows:
            label = f"{name}:".ljust(width + 1)
            lines = _wrapped(str(value), room) if room > 0 else [str(value)]
            for index, piece in enumerate(lines):
                if self.rich and index == 0:
                    self.console.print(f"[bold]{label}[/bold] ", end="")
                    self.console.print(piece, markup=False, highlight=False)
                elif self.rich:
                    self.console.print(" " * (width + 2) + piece, markup=False, highlight=False)
                else:
                    print(f"{label if index == 0 else ' ' * len(label)} {piece}", file=self.stream)
        self.stream.flush()

    def table(
        self,
        columns: Sequence[Column | str],
        rows: Sequence[Sequence[Any]],
        title: str = "",
    ) -> None:
        """A table: boxed and coloured on a terminal, aligned plain columns otherwise.

        On a terminal (without ``--wide``) it fits the terminal's width (:func:`fit`); a
        plain string column is a short ``value``.
        """
        specs = [c if isinstance(c, Column) else Column(c) for c in columns]
        cells = [[str(value) for value in row] for row in rows]
        boxed = self.rich
        if self.tty and not self.wide:
            fitted = fit(specs, cells, terminal_width(), 3 if boxed else 2, 1 if boxed else -2)
        else:
            fitted = fit(specs, cells, 1 << 30, 0, 0)
        headers = [specs[i].header for i in fitted.kept]
        shown = [
            [cut(row[i], w) for i, w in zip(fitted.kept, fitted.widths, strict=True)]
            for row in cells
        ]
        if boxed:
            self._boxed(headers, shown, title, whole=self.wide or not fitted.fits)
        else:
            self._plain(headers, shown, title)
        if fitted.hidden:
            note = f"(not shown at this width: {', '.join(fitted.hidden)}; --wide shows them)"
            for piece in textwrap.wrap(note, terminal_width(), break_long_words=False):
                self.line(piece)

    def _boxed(self, headers: list[str], cells: list[list[str]], title: str, whole: bool) -> None:
        table = Table(title=title or None, header_style="bold cyan")
        for header in headers:
            table.add_column(header, no_wrap=True, overflow="ignore")
        for row in cells:
            table.add_row(*row)
        if whole:  # every cell in full, however wide the terminal
            natural = _natural([Column(h) for h in headers], cells)
            needed = sum(natural) + 3 * len(headers) + 1
            wide = Console(file=self.stream, width=max(needed, self.console.width),
                           highlight=False, force_terminal=True)  # fmt: skip
            wide.print(table, crop=False)
            return
        self.console.print(table, crop=False)

    def _plain(self, headers: list[str], cells: list[list[str]], title: str) -> None:
        if title:
            print(title, file=self.stream)
        widths = _natural([Column(h) for h in headers], cells)
        for row in [headers, *cells]:
            print(
                "  ".join(
                    cell + " " * (widths[i] - cell_len(cell)) for i, cell in enumerate(row)
                ).rstrip(),
                file=self.stream,
            )
        self.stream.flush()
