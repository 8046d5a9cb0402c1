"""Which of the server's files one StartRun and one CompleteTask run code in.

A measurement for the house's reviews (issue 41: "files a CompleteTask and a StartRun
cross"): an in-process server on a SQLite file, every Python thread profiled (the gRPC
loop, the RPC executor, the writer), and for the second call of each kind (the first
warms caches) the set of ``server/praxis`` files whose functions were entered, in the
order first entered. ``python scripts/files_crossed.py [--json]``.
"""

from __future__ import annotations

import json
import sys
import tempfile
import threading
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
PACKAGE = str(ROOT / "server" / "praxis") + "/"

_recording = threading.Event()
_entered: dict[str, None] = {}  # insertion-ordered set


def _profile(frame: FrameType, event: str, _arg: Any) -> None:
    if event == "call" and _recording.is_set():
        name = frame.f_code.co_filename
        if name.startswith(PACKAGE) and name not in _entered:
            _entered[name] = None


def _record(call: Any) -> list[str]:
    _entered.clear()
    _recording.set()
    try:
        call()
    finally:
        _recording.clear()
    return [name.removeprefix(PACKAGE) for name in _entered]


def main() -> int:
    threading.setprofile(_profile)  # every thread started from here on
    sys.setprofile(_profile)
    from tests.support.harness import start_server
    from tests.support.runtime import claim, complete, definition, node, start

    crossed: dict[str, list[str]] = {}
    with tempfile.TemporaryDirectory() as folder:
        h = start_server(Path(folder) / "praxis.db")
        try:
            doc = definition("a", a=node())
            for round_ in range(2):
                crossed["StartRun"] = _record(lambda x=round_: start(h, doc, {"x": x}))
                [task] = claim(h, max_tasks=1)
                crossed["CompleteTask"] = _record(lambda task=task: complete(h, task, "done"))
        finally:
            h.close()
    if "--json" in sys.argv[1:]:
        print(json.dumps(crossed, indent=2))
    else:
        for call, files in crossed.items():
            print(f"{call}: {len(files)} files")
            for name in files:
                print(f"  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
