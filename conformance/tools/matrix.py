"""Writes the parity matrix (vector x language) from the runners' JSON-lines results.

Usage: ``python conformance/tools/matrix.py RESULTS_DIR OUT_DIR [LANGUAGE ...]``. Reads
``RESULTS_DIR/<language>.jsonl`` and writes ``OUT_DIR/matrix.json`` and
``OUT_DIR/matrix.md``: vectors in vector-file order, languages in the order given, only
statuses (no run-specific text), so the files are deterministic and commit-friendly.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ["python", "typescript", "go", "java", "rust"]
SYMBOLS = {
    "pass": "pass",
    "fail": "**FAIL**",
    "xfail": "xfail",
    "xpass": "**XPASS**",
    "missing": "**missing**",
}


def vector_names() -> list[tuple[str, str]]:
    """(area, vector name) of every vector, in the order runners run them."""
    names = []
    for path in sorted((ROOT / "vectors").glob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        names += [(document["area"], vector["name"]) for vector in document["vectors"]]
    return names


def main() -> int:
    results_dir, out_dir = Path(sys.argv[1]), Path(sys.argv[2])
    languages = sys.argv[3:] or LANGUAGES
    statuses: dict[str, dict[str, str]] = {}
    for language in languages:
        path = results_dir / f"{language}.jsonl"
        lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
        records = [json.loads(line) for line in lines if line.strip()]
        statuses[language] = {record["vector"]: record["status"] for record in records}
    vectors = vector_names()
    rows = []
    for area, name in vectors:
        row = {lang: statuses[lang].get(name, "missing") for lang in languages}
        rows.append({"area": area, "vector": name, "results": row})
    summary = {}
    for lang in languages:
        counts = {key: 0 for key in SYMBOLS}
        for row in rows:
            counts[row["results"][lang]] += 1
        summary[lang] = counts
    out_dir.mkdir(parents=True, exist_ok=True)
    document = {"languages": languages, "vectors": len(rows), "summary": summary, "matrix": rows}
    (out_dir / "matrix.json").write_text(
        json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    lines = [
        "# Conformance parity matrix",
        "",
        "Written by `scripts/conformance.sh` (do not edit). `xfail` is listed in",
        "`conformance/expected_failures/<language>.txt`; **FAIL**, **XPASS** and **missing** fail",
        "the run.",
        "",
        "| language | pass | fail | xfail | xpass | missing |",
        "|---|---|---|---|---|---|",
    ]
    for lang in languages:
        c = summary[lang]
        lines.append(
            f"| {lang} | {c['pass']} | {c['fail']} | {c['xfail']} | {c['xpass']} | {c['missing']} |"
        )
    lines += ["", "| vector | " + " | ".join(languages) + " |", "|---|" + "---|" * len(languages)]
    for row in rows:
        cells = " | ".join(SYMBOLS[row["results"][lang]] for lang in languages)
        lines.append(f"| `{row['vector']}` | {cells} |")
    (out_dir / "matrix.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    bad = any(c["fail"] or c["xpass"] or c["missing"] for c in summary.values())
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
