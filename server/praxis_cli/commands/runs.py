"""``praxis runs start|list|show|watch|stop|resume|result``."""

from __future__ import annotations

import argparse
import difflib
import hashlib
import json
import secrets
import time
from dataclasses import dataclass
from typing import Any

import grpc

from aiws.engine.v1 import run_pb2
from praxis_cli.commands.common import (
    approval_args,
    check_digest,
    create_approval,
    group,
    json_argument,
    leaf,
    parse_past_moment,
    parse_ref,
    pretty_json,
    show_warnings,
)
from praxis_cli.errors import OK, RUN_CANCELLED, RUN_FAILED, UNAVAILABLE, CliError, usage
from praxis_cli.output import Column, free_text, ident, local_time, to_dict
from praxis_client.conventions import enum_name
from praxis_client.helpers import ENDING, TERMINAL, unsettled

_STATES: dict[str, Any] = {
    "running": run_pb2.RUN_STATE_RUNNING,
    "awaiting-nodes": run_pb2.RUN_STATE_AWAITING_NODES,
    "completed": run_pb2.RUN_STATE_COMPLETED,
    "failed": run_pb2.RUN_STATE_FAILED,
    "cancelled": run_pb2.RUN_STATE_CANCELLED,
    "completing": run_pb2.RUN_STATE_COMPLETING,
    "failing": run_pb2.RUN_STATE_FAILING,
    "cancelling": run_pb2.RUN_STATE_CANCELLING,
}
_OUTCOME = {  # the exit status of each of the TERMINAL states
    run_pb2.RUN_STATE_COMPLETED: OK,
    run_pb2.RUN_STATE_FAILED: RUN_FAILED,
    run_pb2.RUN_STATE_CANCELLED: RUN_CANCELLED,
}
MAX_NODE_ROWS = 10_000
BAR_WIDTH = 30
LIVE_REPORTS = 5  # progress reports shown under the live bar (the rest are counted)
REPORT_CHARS = 60  # a progress report's width in ``runs show``'s table


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    """Adds the ``runs`` group."""
    runs = group(commands, "runs", "start, follow and stop workflow runs")
    start = leaf(runs, common, "start", _start, "start a run from a definition file or a ref")
    source = start.add_mutually_exclusive_group(required=True)
    source.add_argument("-f", "--file", help="an ad hoc definition (JSON; - for stdin)")
    source.add_argument("--ref", metavar="WORK_ORDER/RUN", help="run a registry head (governed)")
    start.add_argument("--input", help="the run input, a JSON document")
    start.add_argument("--input-file", help="the run input as a JSON file")
    start.add_argument("--request-id", help="idempotency key (default: generated)")
    start.add_argument("--subscriber", default="", help="a subscriber to notify of its events")
    start.add_argument("--contract", default="", help="the contract governing the run")
    start.add_argument(
        "--run-timeout",
        type=int,
        default=0,
        metavar="MS",
        help="the run's own time limit in ms: past it, it fails with DEADLINE_EXCEEDED",
    )
    start.add_argument(
        "--work-order",
        default="",
        help="the work order of an ad hoc run (default: its contract's, else 'default')",
    )
    start.add_argument("--label", action="append", default=[], metavar="KEY=VALUE",
                       help="a label of the run (repeatable; at most 16)")  # fmt: skip
    start.add_argument("--notify", action="append", default=[], metavar="DESTINATION",
                       help="push the outcome to this webhook destination of the server's "
                       "config (repeatable; at most 4)")  # fmt: skip
    start.add_argument("--reply-to", action="store_true",
                       help="post the outcome into --subscriber's events (RUN_REPLY)")  # fmt: skip
    start.add_argument("--reply-template", default="", help="text carried by the reply")
    start.add_argument("--watch", action="store_true", help="then watch it (exit: its outcome)")
    start.add_argument(
        "--dry-run", action="store_true", help="check it and say what a start would answer"
    )

    listing = leaf(runs, common, "list", _list, "list runs, newest first")
    listing.add_argument("--state", choices=sorted(_STATES), help="only runs in this state")
    listing.add_argument("--work-order", default="", help="only runs of this work order")
    listing.add_argument("--ref", metavar="WORK_ORDER/RUN", help="only the runs of this ref")
    listing.add_argument("--contract", default="", help="only runs under this contract")
    listing.add_argument("--started-by", default="", help="only runs this principal started")
    listing.add_argument("--label", action="append", default=[], metavar="KEY=VALUE",
                         help="only runs with this label (repeatable: all must match)")  # fmt: skip
    listing.add_argument(
        "--created-after",
        metavar="WHEN",
        help="only runs created after WHEN: a time ago (90s, 10m, 2h, 7d), an ISO time or epoch ms",
    )
    listing.add_argument("--created-before", metavar="WHEN", help="only runs created before WHEN")
    listing.add_argument("--limit", type=int, default=0, help="page size (server default 100)")
    listing.add_argument("--page-token", default="", help="continue a previous listing")

    show = leaf(
        runs,
        common,
        "show",
        _show,
        "show a run and its nodes, with each node's latest progress report (PROGRESS)",
    )
    show.add_argument("run")
    show.add_argument("--node", default="", help="only this node and its fan-out items")
    show.add_argument(
        "--limit",
        type=int,
        default=200,
        help=f"at most this many node rows (default 200, at most {MAX_NODE_ROWS})",
    )

    watch = leaf(
        runs,
        common,
        "watch",
        _watch,
        "follow a run live until it ends, with each new progress report of its running "
        "nodes' workers (--json: a `progress` list per line); exit status: 0 completed, "
        "8 failed, 9 cancelled",
    )
    watch.add_argument("run")

    stop = leaf(runs, common, "stop", _stop, "stop (cancel) a run")
    stop.add_argument("run")
    stop.add_argument("--reason", required=True, help="why (recorded as its result_error)")

    resume = leaf(
        runs,
        common,
        "resume",
        _resume,
        "run a failed or cancelled run again from where it stopped (a governed run, one "
        "that runs an applied or authorized action again, or --to-head: without --digest, "
        "show the material to approve; with it, approve and resume)",
    )
    resume.add_argument("run")
    resume.add_argument("--reason", required=True, help="why (recorded on the run's events)")
    resume.add_argument(
        "--run-timeout",
        type=int,
        default=0,
        metavar="MS",
        help="its own time limit from now, in ms",
    )
    resume.add_argument(
        "--to-head",
        action="store_true",
        help="governed runs: resume onto the ref's head, replacing the nodes it changes "
        "(shows the node-level diff to approve)",
    )
    resume.add_argument("--digest", help="approve this material digest (as shown without it)")
    resume.add_argument("--request-id", help="idempotency key (default: derived)")
    resume.add_argument(
        "--dry-run",
        action="store_true",
        help="check the resume and show the answer it would get, refusals included (an "
        "approval it needs is not created); store nothing",
    )
    approval_args(resume)

    result = leaf(runs, common, "result", _result, "print one node's stored result")
    result.add_argument("run")
    result.add_argument("node", help="node id, or node_id#i for a fan-out item")


def state_name(state: int) -> str:
    """``RUN_STATE_COMPLETED`` -> ``COMPLETED``."""
    return enum_name(run_pb2.RunState.Name(state), "RUN_STATE_")


def _node_state(state: int) -> str:
    return enum_name(run_pb2.NodeState.Name(state), "NODE_STATE_")


def parse_labels(texts: list[str]) -> dict[str, str]:
    """``KEY=VALUE`` arguments as a label map (the server checks the bounds)."""
    labels: dict[str, str] = {}
    for text in texts:
        key, equals, value = text.partition("=")
        if not equals or not key:
            raise usage(f"--label {text!r} is not KEY=VALUE", "LABEL_INVALID")
        if key in labels:
            raise usage(f"--label {key!r} is given twice", "LABEL_INVALID")
        labels[key] = value
    return labels


def _start(ctx: Any, args: argparse.Namespace) -> int:
    request = run_pb2.StartRunRequest(
        request_id=args.request_id or f"cli-{secrets.token_hex(8)}",
        input_json=json_argument(args.input, args.input_file, "the input"),
        subscriber=args.subscriber,
        contract_id=args.contract,
        work_order_id=args.work_order,
        labels=parse_labels(args.label),
        run_timeout_ms=args.run_timeout,
        dry_run=args.dry_run,
    )
    if args.notify or args.reply_to or args.reply_template:
        request.notify.CopyFrom(
            run_pb2.RunNotify(
                webhooks=args.notify, reply_to=args.reply_to, reply_template=args.reply_template
            )
        )
    if args.ref:
        request.ref.CopyFrom(parse_ref(args.ref))
    else:
        request.definition_json = json_argument(None, args.file, "the definition")
    response = ctx.call(ctx.client.runs.StartRun, request)
    run = response.run
    show_warnings(ctx, response.warnings)
    if response.dry_run:
        if ctx.out.as_json:
            warnings = [to_dict(w) for w in response.warnings]
            ctx.out.json(
                {"run": to_dict(run), "created": response.created, "dry_run": True}
                | {"warnings": warnings}
            )
        else:
            would = "would start" if response.created else "already started (same request id)"
            ctx.out.line(f"dry run: {would} a run ({state_name(run.state)}); nothing was stored")
        return 0
    if args.watch:
        if not ctx.out.as_json:
            ctx.out.line(f"started run {run.run_id}")
        return follow(ctx, run.run_id)
    if ctx.out.as_json:
        warnings = [to_dict(w) for w in response.warnings]
        ctx.out.json({"run": to_dict(run), "created": response.created, "warnings": warnings})
    else:
        verb = "started" if response.created else "already started (same request id)"
        ctx.out.line(f"{verb} run {run.run_id} ({state_name(run.state)})")
    return 0


_RUN_COLUMNS = [
    ident("RUN"),
    Column("STATE"),
    ident("WORK ORDER", optional=True),
    ident("REF", optional=True),
    Column("REVISION", optional=True),
    Column("NODES"),
    Column("CREATED", optional=True),
    Column("FINISHED", optional=True),
    free_text("ERROR"),
]


def _run_row(run: run_pb2.Run) -> list[str]:
    ref = f"{run.ref.work_order_id}/{run.ref.run_id}" if run.ref.work_order_id else "-"
    return [
        run.run_id,
        state_name(run.state),
        run.work_order_id or "-",
        ref,
        str(run.revision or "-"),
        str(run.node_count or len(run.nodes)),
        local_time(run.created_at_ms),
        local_time(run.finished_at_ms),
        run.result_error or "-",
    ]


def _list(ctx: Any, args: argparse.Namespace) -> int:
    request = run_pb2.ListRunsRequest(
        state=_STATES[args.state] if args.state else run_pb2.RUN_STATE_UNSPECIFIED,
        page_size=args.limit,
        page_token=args.page_token,
        work_order_id=args.work_order,
        contract_id=args.contract,
        started_by=args.started_by,
        labels=parse_labels(args.label),
    )
    if args.ref:
        request.ref.CopyFrom(parse_ref(args.ref))
    if args.created_after:
        request.created_after_ms = parse_past_moment(args.created_after, "--created-after")
    if args.created_before:
        request.created_before_ms = parse_past_moment(args.created_before, "--created-before")
    response = ctx.call(ctx.client.runs.ListRuns, request)
    if ctx.out.as_json:
        ctx.out.json(to_dict(response))
        return 0
    ctx.out.table(_RUN_COLUMNS, [_run_row(run) for run in response.runs])
    if response.next_page_token:
        ctx.out.line(f"more: --page-token {response.next_page_token}")
    return 0


def _nodes(ctx: Any, run: run_pb2.Run, node_id: str, limit: int) -> list[run_pb2.NodeStatus]:
    """The run's nodes through ListRunNodes (paged), or its snapshot on an older server."""
    nodes: list[run_pb2.NodeStatus] = []
    token = ""
    try:
        while len(nodes) < limit:
            page = ctx.call(
                ctx.client.runs.ListRunNodes,
                run_pb2.ListRunNodesRequest(
                    run_id=run.run_id,
                    node_id=node_id,
                    page_size=min(1000, limit - len(nodes)),
                    page_token=token,
                ),
            )
            nodes += page.nodes
            token = page.next_page_token
            if not token:
                break
        return nodes
    except grpc.RpcError as error:
        if error.code() is not grpc.StatusCode.UNIMPLEMENTED:
            raise
    return [n for n in run.nodes if not node_id or n.node_id == node_id][:limit]


def _show(ctx: Any, args: argparse.Namespace) -> int:
    run = ctx.call(ctx.client.runs.GetRun, run_pb2.GetRunRequest(run_id=args.run)).run
    nodes = _nodes(ctx, run, args.node, max(1, min(args.limit, MAX_NODE_ROWS)))
    if ctx.out.as_json:
        ctx.out.json({"run": to_dict(run), "nodes": [to_dict(n) for n in nodes]})
        return 0
    ref = (
        f"{run.ref.work_order_id}/{run.ref.run_id} revision {run.revision}"
        if run.ref.work_order_id
        else "-"
    )
    progress = measure(run)
    ctx.out.line(f"Run {run.run_id}", "bold")
    ctx.out.fields(
        [
            ("state", state_name(run.state)),
            *([("waiting for", settling(run))] if run.state in ENDING else []),
            ("work order", run.work_order_id or "-"),
            ("started by", run.started_by or "-"),
            ("labels", ", ".join(f"{k}={v}" for k, v in sorted(run.labels.items())) or "-"),
            ("ref", ref),
            ("definition", run.definition_digest),
            ("progress", f"{progress.done}/{progress.total} nodes done"),
            ("created", local_time(run.created_at_ms)),
            ("updated", local_time(run.updated_at_ms)),
            ("finished", local_time(run.finished_at_ms)),
            ("elapsed", _elapsed(run)),
            (
                "error",
                (f"{run.result_reason}: " if run.result_reason else "") + (run.result_error or "-"),
            ),
        ]
    )
    ctx.out.line()
    ctx.out.line(f"Nodes ({len(nodes)})", "bold")
    if ctx.out.wide or not ctx.out.tty:  # every column of every node, one row each
        ctx.out.table(_NODE_COLUMNS, [_node_row(n) for n in nodes])
    else:  # a table that fits, then a section for each node with more to say
        ctx.out.table(
            _NODE_COLUMNS[:4] + _NODE_COLUMNS[6:8],
            [_node_row(n)[:4] + _node_row(n)[6:8] for n in nodes],
        )
        for node in nodes:
            details = _node_details(node)
            if details:
                ctx.out.line()
                ctx.out.line(f"Node {node.node_uid}", "bold")
                ctx.out.fields(details)
    total = run.node_count or len(run.nodes)
    if len(nodes) < total and not args.node:
        ctx.out.line(f"showing {len(nodes)} of {total} nodes (--limit, --node)")
    if run.result_json:
        ctx.out.line("result:")
        ctx.out.line(pretty_json(run.result_json))
    return 0


def settling(run: run_pb2.Run) -> str:
    """What a COMPLETING, FAILING or CANCELLING run waits for before it ends."""
    stopping, blocked = unsettled(run)
    parts = []
    if stopping:
        parts.append(f"{stopping} attempt(s) asked to stop to report (or their leases to end)")
    if blocked:
        parts.append(f"{blocked} uncertain effect(s) to reconcile (praxis inbox)")
    return "; ".join(parts) or "its last settlement"


_NODE_COLUMNS = [
    ident("NODE"),
    Column("STATE"),
    Column("ATTEMPTS"),
    Column("FAN-OUT"),
    ident("ATTEMPT", optional=True),
    Column("RESULT", optional=True),
    Column("STARTED", optional=True),
    Column("FINISHED", optional=True),
    Column("RETRY AT", optional=True),
    free_text("PROGRESS"),
    free_text("ERROR"),
]


def _node_row(n: run_pb2.NodeStatus) -> list[str]:
    return [
        n.node_uid,
        _node_state(n.state),
        str(n.attempts),
        f"{n.fanout_items_done}/{n.fanout_items}" if n.fanout_items else "-",
        n.attempt_id or "-",
        "yes" if n.has_result else "-",
        local_time(n.started_at_ms),
        local_time(n.finished_at_ms),
        local_time(n.not_before_ms),
        _short(report_text(n).partition(": ")[2]) if n.HasField("progress") else "-",
        n.error or "-",
    ]


def _node_details(n: run_pb2.NodeStatus) -> list[tuple[str, str]]:
    """What a node's row leaves out on a terminal, in full: its attempt, retry, progress
    report and error (nothing for a node with none of them)."""
    details: list[tuple[str, str]] = []
    if n.not_before_ms:
        details.append(("retry at", local_time(n.not_before_ms)))
    if n.HasField("progress"):
        details.append(("progress", report_text(n).partition(": ")[2]))
    if n.error:
        details.append(("error", n.error))
    if details and n.attempt_id:
        details.insert(0, ("attempt", n.attempt_id))
    return details


def _short(text: str) -> str:
    return text if len(text) <= REPORT_CHARS else text[: REPORT_CHARS - 1] + "…"


def _elapsed(run: run_pb2.Run) -> str:
    end = run.finished_at_ms or run.updated_at_ms
    return f"{(end - run.created_at_ms) / 1000:.3f}s" if run.created_at_ms and end else "-"


@dataclass(frozen=True)
class Progress:
    """How far a run is: nodes and items done over all, and each fan-out's items."""

    done: int
    total: int
    fanouts: tuple[tuple[str, int, int], ...]  # (node id, items done, items)


def measure(run: run_pb2.Run) -> Progress:
    """Progress from a snapshot (with its items, or only the fan-out parents' counters)."""
    items_done: dict[str, int] = {}
    for node in run.nodes:
        if "#" in node.node_uid and node.state == run_pb2.NODE_STATE_DONE:
            items_done[node.node_id] = items_done.get(node.node_id, 0) + 1
    fanouts = tuple(
        (n.node_id, max(n.fanout_items_done, items_done.get(n.node_id, 0)), n.fanout_items)
        for n in run.nodes
        if n.fanout_items and "#" not in n.node_uid
    )
    done = sum(1 for n in run.nodes if n.state == run_pb2.NODE_STATE_DONE)
    if run.items_omitted:
        done += sum(items for _, items, _ in fanouts)
    return Progress(done, max(run.node_count, len(run.nodes)), fanouts)


def reporting(run: run_pb2.Run) -> list[run_pb2.NodeStatus]:
    """The running nodes whose workers reported progress, in snapshot order."""
    return [
        n for n in run.nodes if n.state == run_pb2.NODE_STATE_RUNNING and n.HasField("progress")
    ]


def report_text(node: run_pb2.NodeStatus) -> str:
    """One line for a node's latest progress report: its text, then its data."""
    report = node.progress
    parts = [part for part in (report.text, report.data_json) if part]
    return f"{node.node_uid}: " + (" ".join(parts) or "(empty report)")


def report_json(node: run_pb2.NodeStatus) -> dict[str, Any]:
    """A node's latest progress report for ``--json`` lines (data parsed)."""
    report = node.progress
    return {
        "node_uid": node.node_uid,
        "attempt_id": report.attempt_id,
        "text": report.text,
        "data": json.loads(report.data_json) if report.data_json else None,
        "reported_at_ms": report.reported_at_ms,
        "reports": report.reports,
    }


def _describe(run: run_pb2.Run, progress: Progress, elapsed_s: float) -> str:
    parts = [f"{progress.done}/{progress.total} nodes done"]
    parts += [f"fan-out {name}: {done}/{items} items" for name, done, items in progress.fanouts]
    parts += [state_name(run.state), f"{elapsed_s:.1f}s"]
    return " | ".join(parts)


def _bar(progress: Progress) -> str:
    filled = BAR_WIDTH * progress.done // progress.total if progress.total else 0
    return "[" + "#" * filled + "-" * (BAR_WIDTH - filled) + "]"


class _LiveView:
    """What the terminal shows while watching; re-rendered (elapsed time ticking)."""

    def __init__(self, began: float) -> None:
        self.began = began
        self.run: run_pb2.Run | None = None

    def __rich__(self) -> Any:
        from rich.text import Text

        if self.run is None:
            return Text("waiting for the first snapshot...")
        progress = measure(self.run)
        text = _describe(self.run, progress, time.monotonic() - self.began)
        lines = [f"{_bar(progress)} {text}"]
        reports = reporting(self.run)
        lines += [f"  {report_text(node)}" for node in reports[:LIVE_REPORTS]]
        if len(reports) > LIVE_REPORTS:
            lines.append(f"  ... and {len(reports) - LIVE_REPORTS} more reporting")
        return Text("\n".join(lines))


def follow(ctx: Any, run_id: str) -> int:
    """Follows a run to its end; returns the exit code of its outcome."""
    began = time.monotonic()
    last: run_pb2.Run | None = None
    shown = ""
    printed: dict[str, tuple[str, int]] = {}  # node uid -> the (attempt, report) printed
    live = None
    if ctx.out.rich:
        from rich.live import Live

        view = _LiveView(began)
        live = Live(view, console=ctx.out.console, refresh_per_second=8, transient=False)
        live.start()
    try:
        for response in ctx.stream(
            ctx.client.runs.WatchRun, run_pb2.WatchRunRequest(run_id=run_id)
        ):
            last = response.run
            progress = measure(last)
            elapsed = time.monotonic() - began
            if ctx.out.as_json:
                ctx.out.json_line(
                    {
                        "run_id": run_id,
                        "state": state_name(last.state),
                        "done": progress.done,
                        "total": progress.total,
                        "fanouts": [
                            {"node_id": n, "done": d, "items": i} for n, d, i in progress.fanouts
                        ],
                        "elapsed_ms": int(elapsed * 1000),
                        "progress": [report_json(node) for node in reporting(last)],
                    }
                )
                continue
            text = _describe(last, progress, elapsed)
            if live is not None:
                view.run = last
                continue
            if text.rsplit(" | ", 1)[0] != shown:  # print each change once
                shown = text.rsplit(" | ", 1)[0]
                ctx.out.line(f"progress: {_bar(progress)} {text}")
            for node in reporting(last):  # and each new report once
                seen = (node.progress.attempt_id, node.progress.reports)
                if printed.get(node.node_uid) != seen:
                    printed[node.node_uid] = seen
                    ctx.out.line(f"  {report_text(node)}")
    finally:
        if live is not None:
            live.stop()
    if last is None or last.state not in TERMINAL:
        last = ctx.call(ctx.client.runs.GetRun, run_pb2.GetRunRequest(run_id=run_id)).run
    if last.state not in TERMINAL:
        raise CliError(
            "UNAVAILABLE", "the watch ended before the run did; watch again", UNAVAILABLE
        )
    if ctx.out.as_json:
        ctx.out.json_line({"run": to_dict(last)})
    else:
        style = "bold green" if last.state == run_pb2.RUN_STATE_COMPLETED else "bold red"
        error = f": {last.result_error}" if last.result_error else ""
        ctx.out.line(f"run {run_id} {state_name(last.state)} after {_elapsed(last)}{error}", style)
    return _OUTCOME[last.state]


def _watch(ctx: Any, args: argparse.Namespace) -> int:
    return follow(ctx, args.run)


def _stop(ctx: Any, args: argparse.Namespace) -> int:
    request = run_pb2.StopRunRequest(run_id=args.run, reason=args.reason)
    run = ctx.call(ctx.client.runs.StopRun, request).run
    if ctx.out.as_json:
        ctx.out.json(to_dict(run))
    else:
        ctx.out.line(f"run {run.run_id} {state_name(run.state)}")
        if run.state in ENDING:
            ctx.out.line(f"waiting for {settling(run)}")
            ctx.out.line(f"follow it: praxis runs watch {run.run_id}")
    return 0


def _resume(ctx: Any, args: argparse.Namespace) -> int:
    run = ctx.call(ctx.client.runs.GetRun, run_pb2.GetRunRequest(run_id=args.run)).run
    request = run_pb2.ResumeRunRequest(
        run_id=args.run, reason=args.reason, run_timeout_ms=args.run_timeout, to_head=args.to_head
    )
    review = ctx.call(
        ctx.client.runs.ReviewResume,
        run_pb2.ReviewResumeRequest(
            run_id=args.run,
            reason=args.reason,
            run_timeout_ms=args.run_timeout,
            to_head=args.to_head,
        ),
    )
    digest = ""
    # A governed run, a resume onto the head, and a resume that runs an applied or
    # authorized action again: a human approves the exact material first.
    needs_approval = run.HasField("ref") or args.to_head or review.material.reapprove_count
    if needs_approval and not args.dry_run:
        digest = review.material_digest
        if not args.digest:
            return _show_resume(ctx, review)
        check_digest(args.digest, digest)
        approval = create_approval(ctx, args, digest, review.material.work_order_id)
        request.epochs.CopyFrom(review.material.epochs)
        request.approval_id = approval.approval_id
    key = digest or f"{args.run}:{run.version}:{args.reason}:{args.run_timeout}"
    request.request_id = (
        args.request_id or "cli-resume-" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:24]
    )
    request.dry_run = args.dry_run
    response = ctx.call(ctx.client.runs.ResumeRun, request)
    if ctx.out.as_json:
        dry = {"dry_run": True} if response.dry_run else {}
        ctx.out.json({"run": to_dict(response.run), "replayed": response.replayed} | dry)
    else:
        again = [n.node_uid for n in response.run.nodes if n.state == run_pb2.NODE_STATE_READY]
        said = "dry run: would resume" if response.dry_run else "resumed"
        ctx.out.line(
            f"{said} run {args.run} ({state_name(response.run.state)})"
            + (f" at revision {response.run.revision}" if args.to_head else "")
            + (" (replayed)" if response.replayed else "")
            + (f"; ready again: {', '.join(again)}" if again else "")
        )
    return 0


def _show_resume(ctx: Any, review: run_pb2.ReviewResumeResponse) -> int:
    m = review.material
    diffs = {change.node_id: _node_diff(change) for change in m.changes}
    if ctx.out.as_json:
        ctx.out.json(
            {
                "material": to_dict(m),
                "material_digest": review.material_digest,
                "diff": diffs,
            }
        )
        return 0
    nodes = ", ".join(
        f"{n.node_uid}{' (new operation)' if n.new_operation else ''}" for n in m.nodes
    )
    rows = [
        ("run", m.run_id),
        ("ref", f"{m.work_order_id}/{m.ref_run_id}" if m.ref_run_id else "- (ad hoc)"),
        ("run version", str(m.run_version)),
        ("revision", f"{m.revision} -> {m.to_revision}" if m.to_revision else str(m.revision)),
        ("runs again", f"{m.node_count} node(s): {nodes}" if nodes else "nothing"),
        ("reason", m.reason),
        ("time limit", f"{m.run_timeout_ms} ms" if m.run_timeout_ms else "-"),
    ]
    if m.reapprove_count:
        rows.append(("approve again", f"{m.reapprove_count} action(s), listed below"))
    if m.to_revision:
        rows.append(("replaces", ", ".join(c.node_id for c in m.changes) or "nothing"))
    ctx.out.fields(rows)
    for node in m.reapprove:
        why = " and ".join(
            text
            for text, flag in (("its effect was applied", node.effect_applied),
                               ("its action was authorized", node.authorized))
            if flag
        )  # fmt: skip
        ctx.out.line(f"approve again: {node.node_uid}: {why}", "bold")
        ctx.out.line(f"  operation {node.operation_id}")
        ctx.out.line(f"  input {node.input_digest or '(not known yet)'}")
    for change in m.changes:
        state = run_pb2.NodeState.Name(change.state).removeprefix("NODE_STATE_").lower()
        ctx.out.line(f"replaced: {change.node_id} ({state} in the run)", "bold")
        for line in diffs[change.node_id]:
            ctx.out.line(line)
    ctx.out.line(f"material digest: {review.material_digest}", "bold yellow")
    return 0


def _node_diff(change: run_pb2.ResumeChange) -> list[str]:
    """A unified diff of one node's entry in the run's revision and in the head."""
    old, new = (
        json.dumps(json.loads(text), indent=2, sort_keys=True).splitlines() if text else []
        for text in (change.old_node_json, change.new_node_json)
    )
    label = f"nodes.{change.node_id}"
    return list(difflib.unified_diff(old, new, f"run {label}", f"head {label}", lineterm=""))


def _result(ctx: Any, args: argparse.Namespace) -> int:
    request = run_pb2.GetNodeResultRequest(run_id=args.run, node_uid=args.node)
    response = ctx.call(ctx.client.runs.GetNodeResult, request)
    if not response.present:
        raise CliError("RESULT_NOT_PRESENT", f"{args.node} has no stored result yet", 3)
    if ctx.out.as_json:
        ctx.out.json(
            {"run_id": args.run, "node_uid": args.node, "result": json.loads(response.result_json)}
        )
    else:
        ctx.out.line(pretty_json(response.result_json))
    return 0
