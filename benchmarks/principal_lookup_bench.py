"""Cost of the database-backed authority per call, against the in-memory file authority.

Every RPC authenticates its token and most authorize an action. The built-in authority
now reads principals from the database (through a lookup cache of
``praxis.store.principals.lookups.CACHE_TTL_S``); this measures, in one process and one run,
authenticate + authorize with: the in-memory principals-file authority (the baseline),
the database authority with a warm cache (the usual case), and with the cache disabled
(every call reads the database: the cost right after a change, or in another process).
Results go to stdout and ``benchmarks/results/principals.json``.

    .venv/bin/python benchmarks/principal_lookup_bench.py [--calls 5000]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from praxis.app import Engine, Settings
from praxis.authority.protocol import Authority
from praxis.clock import TestClock
from praxis.store.principals import lookups
from tests.support.harness import T0, authority, token_of


def per_call_us(subject: Authority, calls: int) -> float:
    principal = subject.authenticate(token_of("alice"), T0)
    assert not hasattr(principal, "reason"), principal
    began = time.perf_counter()
    for _ in range(calls):
        subject.authenticate(token_of("alice"), T0)
        subject.authorize(principal, "registry.read", "wo-1", T0)  # type: ignore[arg-type]
    return (time.perf_counter() - began) / calls * 1e6


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=5000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        settings = Settings(
            database_url=f"sqlite:///{directory}/bench.db", authority=authority(),
            clock=TestClock(T0),
        )  # fmt: skip
        engine = Engine(settings)
        try:
            measures: dict[str, Callable[[], float]] = {
                "file": lambda: per_call_us(authority(), args.calls),
                "database_warm_cache": lambda: per_call_us(engine.settings.authority, args.calls),
            }
            results = {name: measure() for name, measure in measures.items()}
            ttl = lookups.CACHE_TTL_S
            lookups.CACHE_TTL_S = 0.0
            try:
                results["database_no_cache"] = per_call_us(
                    engine.settings.authority, args.calls // 5
                )
            finally:
                lookups.CACHE_TTL_S = ttl
        finally:
            engine.close()
    report = {
        "calls": args.calls,
        "us_per_authenticate_and_authorize": results,
        "ratio_to_file": {name: value / results["file"] for name, value in results.items()},
    }
    print(json.dumps(report, indent=2))
    out = Path(__file__).parent / "results" / "principals.json"
    out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
