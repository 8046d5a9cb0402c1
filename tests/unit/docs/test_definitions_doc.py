"""docs/definitions.md is generated from the schema, the server's rules and its template."""

from __future__ import annotations

import importlib.util
import re

from tests.support.paths import ROOT

SCRIPT = ROOT / "scripts" / "definitions_doc.py"


def _generator():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("definitions_doc", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_definitions_md_is_up_to_date() -> None:
    page = (ROOT / "docs" / "definitions.md").read_text(encoding="utf-8")
    assert page == _generator().generate(), (
        "docs/definitions.md is stale: run .venv/bin/python scripts/definitions_doc.py"
    )


def test_the_reference_has_every_key_of_the_schema() -> None:
    import json

    page = (ROOT / "docs" / "definitions.md").read_text(encoding="utf-8")
    schema = json.loads((ROOT / "docs" / "definition.schema.json").read_text(encoding="utf-8"))
    objects = [schema, *schema["$defs"].values()]
    keys = {key for spec in objects for key, sub in spec.get("properties", {}).items() if sub}
    for key in keys:
        assert re.search(rf"^\| `{re.escape(key)}` \|", page, re.MULTILINE), key
    assert "| backoff order |" in page and "{{" not in page
