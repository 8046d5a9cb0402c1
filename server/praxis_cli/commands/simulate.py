"""``praxis simulate``: a dry run of a definition or a ref's revision by the server's pure
core (SimulationService), under a script of outcomes; nothing is stored.

The script file is a JSON list of outcomes, each the proto-JSON of a ``ScriptedOutcome``
with two conveniences: ``kind`` may drop its ``SCRIPTED_OUTCOME_KIND_`` prefix, and
``result`` may give the result (or answer) as a JSON value instead of ``resultJson``
text::

    [{"node": "a", "kind": "FAIL", "error": "flaky", "retryable": true},
     {"node": "a", "kind": "COMPLETE", "result": {"ok": true}, "durationMs": 500}]
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from google.protobuf import json_format

from aiws.engine.v1 import event_pb2, run_pb2
from aiws.engine.v1 import simulation_pb2 as pb
from praxis_cli.commands.common import json_argument, leaf, parse_ref, read_text
from praxis_cli.errors import usage
from praxis_cli.output import Column, free_text, ident, to_dict
from praxis_client.conventions import enum_name

_KIND_PREFIX = "SCRIPTED_OUTCOME_KIND_"


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    """Adds ``simulate``."""
    simulate = leaf(
        commands,
        common,
        "simulate",
        _simulate,
        "dry-run a definition under a script of outcomes (nothing is stored)",
    )
    source = simulate.add_mutually_exclusive_group(required=True)
    source.add_argument("-f", "--file", help="a definition (JSON; - for stdin)")
    source.add_argument("--ref", metavar="WORK_ORDER/RUN", help="a registry ref's definition")
    simulate.add_argument("--revision", type=int, default=0, help="with --ref (default: head)")
    simulate.add_argument(
        "--script",
        required=True,
        metavar="FILE",
        help="the outcomes, a JSON list of {node, kind (COMPLETE, FAIL, UNCERTAIN, LEASE_LOST, "
        "ANSWER, RECONCILE), result, error, retryable, durationMs, applied}, used in order "
        "per node (docs/core.md#simulating-from-any-language)",
    )
    simulate.add_argument("--input", help="the run input, a JSON document")
    simulate.add_argument("--input-file", help="the run input as a JSON file")
    simulate.add_argument(
        "--start", type=int, default=0, metavar="MS", help="start time, epoch ms (default: now)"
    )
    simulate.add_argument(
        "--lease-ms", type=int, default=0, help="each attempt's lease (default 60000)"
    )
    simulate.add_argument(
        "--run-timeout", type=int, default=0, metavar="MS", help="the run's timeout (0: none)"
    )
    simulate.add_argument(
        "--work-order", default="", help="whose run.read grant is used (default: default)"
    )


def script_of(text: str) -> list[pb.ScriptedOutcome]:
    """The outcomes of a script file's text (see the module's docstring)."""
    try:
        entries = json.loads(text)
    except ValueError as error:
        raise usage(f"the script is not JSON: {error}", "DOCUMENT_MALFORMED") from error
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise usage("the script is a JSON list of outcomes (objects)", "SCRIPT_INVALID")
    found: list[pb.ScriptedOutcome] = []
    for index, entry in enumerate(entries):
        entry = dict(entry)
        kind = entry.get("kind")
        if isinstance(kind, str) and not kind.startswith(_KIND_PREFIX):
            entry["kind"] = _KIND_PREFIX + kind.upper()
        if "result" in entry:
            entry["resultJson"] = json.dumps(entry.pop("result"), ensure_ascii=False)
        try:
            found.append(json_format.ParseDict(entry, pb.ScriptedOutcome()))
        except json_format.ParseError as error:
            raise usage(f"script[{index}]: {error}", "SCRIPT_INVALID") from error
    return found


def _simulate(ctx: Any, args: argparse.Namespace) -> int:
    request = pb.SimulateRunRequest(
        input_json=json_argument(args.input, args.input_file, "the input"),
        start_at_ms=args.start or int(time.time() * 1000),
        script=script_of(read_text(args.script)),
        work_order_id=args.work_order,
        lease_ms=args.lease_ms,
        run_timeout_ms=args.run_timeout,
        revision=args.revision,
    )
    if args.ref:
        request.ref.CopyFrom(parse_ref(args.ref))
    else:
        request.definition_json = json_argument(None, args.file, "the definition")
    answer = ctx.call(ctx.client.simulations.SimulateRun, request)
    if ctx.out.as_json:
        ctx.out.json(to_dict(answer))
        return 0
    start = request.start_at_ms
    ctx.out.table(
        [
            Column("+MS"),
            Column("ACTION"),
            ident("NODE"),
            Column("TRY"),
            Column("RUN"),
            free_text("EVENTS"),
        ],
        [
            [
                step.at_ms - start,
                enum_name(pb.SimulationStepAction.Name(step.action), "SIMULATION_STEP_ACTION_"),
                step.node_uid or "-",
                step.attempt or "-",
                enum_name(run_pb2.RunState.Name(step.state), "RUN_STATE_"),
                step.refusal_reason or " ".join(_event_kind(e.kind) for e in step.events) or "-",
            ]
            for step in answer.steps
        ],
    )
    end = enum_name(pb.SimulationEnd.Name(answer.end), "SIMULATION_END_")
    rows: list[tuple[str, Any]] = [("end", end)]
    if answer.waiting_on:
        rows.append(("needs", _needs(answer)))
    if answer.result_json:
        rows.append(("result", answer.result_json))
    if answer.run.result_error:
        rows.append(("error", answer.run.result_error))
    ctx.out.fields(rows)
    return 0


def _needs(answer: pb.SimulateRunResponse) -> str:
    """What the script lacks for the node the simulation stopped at."""
    states = {node.node_uid: node.state for node in answer.run.nodes}
    if states.get(answer.waiting_on) == run_pb2.NODE_STATE_BLOCKED:
        return f"a RECONCILE outcome for {answer.waiting_on} (its effect is uncertain)"
    return f"an outcome for {answer.waiting_on} (what its worker reports next)"


def _event_kind(value: int) -> str:
    return event_pb2.EventKind.Name(value).removeprefix("EVENT_KIND_")
