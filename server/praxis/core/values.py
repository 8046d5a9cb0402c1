"""Wire value rules shared by every language (SPEC section 3).

* Canonical decimal strings for quantities: ``-?(0|[1-9][0-9]*)(\\.[0-9]*[1-9])?``, no
  ``-0``. Non-canonical input is rejected, never normalised.
* Documents: JSON text parsed under one bounded profile (size, depth, no duplicate keys,
  valid UTF-8, safe integers only).
* Canonical JSON (RFC 8785 style) and ``sha256:<hex>`` digests over it.
* Identifiers: immutable strings of a bounded, printable alphabet.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from praxis.core.rejection import Rejected, Rejection, invalid

MAX_SAFE_INTEGER = 2**53 - 1
DEFAULT_MAX_DOCUMENT_BYTES = 1024 * 1024
DEFAULT_MAX_DOCUMENT_DEPTH = 64
MAX_EPOCH_MS = 8_640_000_000_000_000

_DECIMAL = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?")
_DIGEST = re.compile(r"sha256:[0-9a-f]{64}")
_IDENTIFIER_MAX = 128

JsonValue = Any  # None | bool | int | str | list[JsonValue] | dict[str, JsonValue]


# --- decimals --------------------------------------------------------------------------


def is_canonical_decimal(text: str) -> bool:
    """True when ``text`` is a canonical decimal string (and not ``-0``)."""
    return _DECIMAL.fullmatch(text) is not None and text != "-0"


def parse_decimal(text: str, field_path: str) -> Decimal | Rejection:
    """Parses a canonical decimal string exactly.

    Args:
        text: The wire value.
        field_path: The request field, for the violation.

    Returns:
        The exact value, or a DECIMAL_NOT_CANONICAL rejection.
    """
    if not is_canonical_decimal(text):
        return invalid(
            "DECIMAL_NOT_CANONICAL",
            field_path,
            f"{text!r} is not a canonical decimal: digits, optional '-', optional "
            "fraction without trailing zeros, no exponent, no '+', no '-0'",
        )
    return Decimal(text)


def format_decimal(value: Decimal) -> str:
    """Formats an exact decimal in canonical form (the inverse of :func:`parse_decimal`)."""
    if not value.is_finite():
        raise ValueError("not a finite decimal")
    text = format(value, "f")  # plain notation, exact: no rounding, no exponent
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("0", "-0") else text


# --- documents -------------------------------------------------------------------------


@dataclass(frozen=True)
class DocumentProfile:
    """Caps of the bounded document profile."""

    max_bytes: int = DEFAULT_MAX_DOCUMENT_BYTES
    max_depth: int = DEFAULT_MAX_DOCUMENT_DEPTH


DEFAULT_PROFILE = DocumentProfile()


def _reject_pairs(field_path: str) -> Any:
    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key, value in pairs:
            if key in result:
                raise Rejected(
                    invalid(
                        "DOCUMENT_DUPLICATE_KEY",
                        field_path,
                        f"duplicate object key {key!r}",
                    )
                )
            result[key] = value
        return result

    return hook


def _number_forbidden(field_path: str, what: str) -> Rejected:
    return Rejected(
        invalid(
            "DOCUMENT_NUMBER_FORBIDDEN",
            field_path,
            f"{what}: documents allow only safe integers (|n| <= 2^53-1); "
            "use canonical decimal strings for other quantities",
        )
    )


def _parse_int(field_path: str) -> Any:
    def parse(text: str) -> int:
        if len(text) > 17:
            raise _number_forbidden(field_path, f"integer {text[:24]} is out of range")
        value = int(text)
        if abs(value) > MAX_SAFE_INTEGER:
            raise _number_forbidden(field_path, f"integer {text} is out of range")
        return value

    return parse


def _parse_float(field_path: str) -> Any:
    def parse(text: str) -> float:
        raise _number_forbidden(field_path, f"number {text[:24]} has a fraction or exponent")

    return parse


def _parse_constant(field_path: str) -> Any:
    def parse(text: str) -> float:
        raise _number_forbidden(field_path, f"{text} is not a JSON value")

    return parse


def _nesting_depth(text: str) -> int:
    """Maximum bracket nesting of JSON text, ignoring brackets inside strings."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _check_strings(value: JsonValue, field_path: str) -> None:
    """Rejects lone surrogates that JSON escapes can smuggle past UTF-8 validation."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            _check_utf8(item, field_path)
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            for key, child in item.items():
                _check_utf8(key, field_path)
                stack.append(child)


def _check_utf8(text: str, field_path: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise Rejected(
            invalid("DOCUMENT_MALFORMED", field_path, "string is not valid UTF-8")
        ) from error


def parse_document(
    text: str, field_path: str, profile: DocumentProfile = DEFAULT_PROFILE
) -> JsonValue | Rejection:
    """Parses JSON text under the bounded document profile.

    Args:
        text: The JSON text.
        field_path: The request field, for violations.
        profile: The caps to apply.

    Returns:
        The parsed value (``None``, ``bool``, ``int``, ``str``, ``list`` or ``dict``), or a
        rejection naming the first problem found.
    """
    size = len(text.encode("utf-8", errors="surrogatepass"))
    if size > profile.max_bytes:
        return invalid(
            "DOCUMENT_TOO_LARGE",
            field_path,
            f"document is {size} bytes; the cap is {profile.max_bytes}",
        )
    if _nesting_depth(text) > profile.max_depth:
        return invalid(
            "DOCUMENT_TOO_DEEP",
            field_path,
            f"document nests deeper than {profile.max_depth} levels",
        )
    try:
        value = json.loads(
            text,
            object_pairs_hook=_reject_pairs(field_path),
            parse_int=_parse_int(field_path),
            parse_float=_parse_float(field_path),
            parse_constant=_parse_constant(field_path),
        )
        _check_strings(value, field_path)
    except Rejected as rejected:
        return rejected.rejection
    except (json.JSONDecodeError, UnicodeError, RecursionError) as error:
        return invalid("DOCUMENT_MALFORMED", field_path, f"not valid JSON: {error}")
    return value


def parse_versioned_document(
    text: str,
    field_path: str,
    supported: tuple[int, ...] = (1,),
    profile: DocumentProfile = DEFAULT_PROFILE,
) -> dict[str, JsonValue] | Rejection:
    """Parses an object document that carries a ``version`` this engine supports."""
    value = parse_document(text, field_path, profile)
    if isinstance(value, Rejection):
        return value
    if not isinstance(value, dict):
        return invalid("DOCUMENT_MALFORMED", field_path, "document must be a JSON object")
    version = value.get("version")
    if isinstance(version, bool) or version not in supported:
        return invalid(
            "DOCUMENT_VERSION_UNSUPPORTED",
            f"{field_path}.version",
            f"version {version!r} is not supported; supported: {list(supported)}",
        )
    return value


# --- canonical JSON and digests -------------------------------------------------------


def canonical_json(value: JsonValue) -> str:
    """Serialises a document value as canonical JSON (RFC 8785 for integer-only JSON).

    Keys are sorted by their UTF-16 code units, there is no insignificant whitespace and
    strings use the minimal escapes of ECMAScript's ``JSON.stringify``.
    """
    # Fast path: for integer-only JSON, Python's encoder already produces this form,
    # except that it sorts keys by code point; the orders differ only when a string
    # holds a character outside the Basic Multilingual Plane, so those take the slow path.
    text = _encode(value)
    if not text.isascii() and max(text) > "\uffff":
        return canonical_json_slow(value)
    return text


_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
_MAKE_C_ENCODER: Any = getattr(json.encoder, "c_make_encoder", None)  # CPython's _json
_C_ENCODER = (
    None
    if _MAKE_C_ENCODER is None
    else _MAKE_C_ENCODER(
        None,  # no cycle check: a document value is a tree
        _ENCODER.default,
        json.encoder.encode_basestring,
        None,
        ":",
        ",",
        True,  # sort_keys
        False,  # skipkeys
        True,  # allow_nan (a document holds no floats: parse_document refuses them)
    )
)


def _encode(value: JsonValue) -> str:
    """``json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)``
    through one encoder built once (``json.dumps`` with arguments builds a new encoder on
    every call: half the cost of a small document)."""
    if _C_ENCODER is None:
        return _ENCODER.encode(value)
    return "".join(_C_ENCODER(value, 0))


def canonical_json_slow(value: JsonValue) -> str:
    """Canonical JSON written out by hand (the reference for :func:`canonical_json`)."""
    parts: list[str] = []
    _write_canonical(value, parts)
    return "".join(parts)


def _write_canonical(value: JsonValue, out: list[str]) -> None:
    if value is None or isinstance(value, bool):
        out.append("null" if value is None else ("true" if value else "false"))
    elif isinstance(value, int):
        out.append(str(value))
    elif isinstance(value, str):
        out.append(json.dumps(value, ensure_ascii=False))
    elif isinstance(value, list | tuple):
        out.append("[")
        for index, item in enumerate(value):
            if index:
                out.append(",")
            _write_canonical(item, out)
        out.append("]")
    elif isinstance(value, dict):
        out.append("{")
        keys = sorted(value, key=lambda key: key.encode("utf-16-be"))
        for index, key in enumerate(keys):
            if index:
                out.append(",")
            out.append(json.dumps(key, ensure_ascii=False))
            out.append(":")
            _write_canonical(value[key], out)
        out.append("}")
    else:
        raise TypeError(f"not a document value: {type(value).__name__}")


def digest(value: JsonValue) -> str:
    """``sha256:<hex>`` of the canonical JSON of ``value``."""
    return "sha256:" + hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()


def is_digest(text: str) -> bool:
    """True when ``text`` has the form ``sha256:<64 lowercase hex>``."""
    return _DIGEST.fullmatch(text) is not None


# --- identifiers and times ------------------------------------------------------------


def identifier_problem(text: str) -> str | None:
    """Why ``text`` is not a valid identifier, or ``None`` when it is.

    Identifiers are 1 to 128 characters of letters and digits of any script plus
    ``-_.:@``; no whitespace, controls, slashes or other punctuation.
    """
    if not text:
        return "must not be empty"
    if len(text) > _IDENTIFIER_MAX:
        return f"must be at most {_IDENTIFIER_MAX} characters"
    for char in text:
        if not (char.isalnum() or char in "-_.:@"):
            return f"must not contain {char!r}"
    return None


def check_identifier(text: str, field_path: str) -> Rejection | None:
    """An IDENTIFIER_INVALID rejection when ``text`` is not an identifier."""
    problem = identifier_problem(text)
    if problem is None:
        return None
    if not text:
        return invalid("FIELD_REQUIRED", field_path, f"{field_path} is required")
    return invalid("IDENTIFIER_INVALID", field_path, f"{field_path} {problem}")


def check_epoch_ms(value: int, field_path: str) -> Rejection | None:
    """A TIME_INVALID rejection when ``value`` is outside the representable range."""
    if 0 < value <= MAX_EPOCH_MS:
        return None
    return invalid("TIME_INVALID", field_path, f"{field_path} must be in (0, {MAX_EPOCH_MS}] ms")


# --- free text ---------------------------------------------------------------------------

MAX_TEXT_BYTES = 4096
"""The cap on every free-text field (reasons, summaries, notes, a worker's error text),
in UTF-8 bytes. A request past it is refused with ``TEXT_TOO_LONG``, except a worker's
own error text, which is kept truncated (see :func:`truncate_text`)."""

_TRUNCATED = "…[truncated {} bytes]"


def _utf8_size(text: str) -> int:
    return len(text.encode("utf-8", errors="surrogatepass"))


def check_text(text: str, field_path: str, cap: int = MAX_TEXT_BYTES) -> Rejection | None:
    """A TEXT_TOO_LONG rejection when ``text`` is longer than ``cap`` UTF-8 bytes."""
    size = _utf8_size(text)
    if size <= cap:
        return None
    return invalid(
        "TEXT_TOO_LONG", field_path, f"{field_path} is {size} bytes; the cap is {cap} bytes"
    )


def truncate_text(text: str, cap: int = MAX_TEXT_BYTES) -> str:
    """``text`` unchanged when it fits ``cap`` UTF-8 bytes, else cut on a character
    boundary and ending with a marker that says how many bytes were cut (whole result
    within ``cap``)."""
    data = text.encode("utf-8", errors="surrogatepass")
    if len(data) <= cap:
        return text
    keep = cap - _utf8_size(_TRUNCATED.format(len(data)))
    head = data[:keep].decode("utf-8", errors="ignore")
    cut = len(data) - _utf8_size(head)
    return head + _TRUNCATED.format(cut)
