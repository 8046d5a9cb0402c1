"""Runs: a filterable, paged list; a run page with its DAG, nodes, attempts and event log,
kept live over server-sent events; starting and stopping runs."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncGenerator
from typing import Any
from urllib.parse import quote

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from aiws.engine.v1 import (
    common_pb2,
    event_pb2,
    reconciliation_pb2,
    run_pb2,
    wait_pb2,
)
from praxis_client.conventions import enum_name
from praxis_client.helpers import ENDING, ENDS_AS, TERMINAL, unsettled
from praxis_console import graph, questions, search, web
from praxis_console.api import ApiError, Engine
from praxis_console.sessions import Session
from praxis_console.timeline import Timeline

PAGE_SIZES = (25, 50, 100)
ITEMS_PAGE = 100
EVENTS_SHOWN = 1_000
HEARTBEAT_S = 15.0


def state_name(state: int) -> str:
    return enum_name(run_pb2.RunState.Name(state), "RUN_STATE_")


def node_state(state: int) -> str:
    return enum_name(run_pb2.NodeState.Name(state), "NODE_STATE_")


def settling(run: run_pb2.Run) -> str:
    """What a COMPLETING, FAILING or CANCELLING run waits for before it ends ("" for a
    run in another state)."""
    if run.state not in ENDING:
        return ""
    stopping, blocked = unsettled(run)
    waits = []
    if stopping:
        waits.append(
            f"{stopping} attempt(s) asked to stop: their workers' reports settle them, "
            "or their leases run out"
        )
    if blocked:
        waits.append(f"{blocked} uncertain effect(s) to reconcile (see the inbox)")
    outcome = state_name(ENDS_AS[run.state])
    return (
        f"The outcome is decided; the run becomes {outcome} once nothing is unsettled: "
        + ("; ".join(waits) or "its last settlement")
        + "."
    )


def run_summary(run: run_pb2.Run) -> dict[str, Any]:
    """What the live page needs from a snapshot (JSON-ready)."""
    return {
        "run_id": run.run_id,
        "state": state_name(run.state),
        "settling": settling(run),
        "version": run.version,
        "node_count": max(run.node_count, len(run.nodes)),
        "duration": web.format_duration(
            (run.finished_at_ms or run.updated_at_ms) - run.created_at_ms
        ),
        "updated_at": web.format_ms(run.updated_at_ms),
        "finished_at": web.format_ms(run.finished_at_ms),
        "result_error": run.result_error,
        "result_reason": run.result_reason,
        "result_json": run.result_json,
        "nodes": [node_summary(n, done) for n, done in with_items_done(run.nodes)],
    }


def with_items_done(nodes: Any) -> list[tuple[run_pb2.NodeStatus, int]]:
    """Each node with its fan-out items done: the server's count, or (from a server that
    does not fill ``fanout_items_done``) the DONE items listed in the same snapshot."""
    counted: dict[str, int] = {}
    for node in nodes:
        if "#" in node.node_uid and node.state == run_pb2.NODE_STATE_DONE:
            counted[node.node_id] = counted.get(node.node_id, 0) + 1
    return [(n, n.fanout_items_done or counted.get(n.node_id, 0)) for n in nodes]


def node_summary(node: run_pb2.NodeStatus, items_done: int | None = None) -> dict[str, Any]:
    done = node.fanout_items_done if items_done is None else items_done
    return {
        "uid": node.node_uid,
        "node_id": node.node_id,
        "state": node_state(node.state),
        "attempts": node.attempts,
        "error": node.error,
        "fanout_items": node.fanout_items,
        "fanout_items_done": done,
        "progress": f"{done:,}/{node.fanout_items:,}" if node.fanout_items else "",
        "started_at": web.format_ms(node.started_at_ms),
        "finished_at": web.format_ms(node.finished_at_ms),
        "duration": web.format_duration(node.finished_at_ms - node.started_at_ms)
        if node.started_at_ms and node.finished_at_ms
        else "",
        "report": worker_report(node),
    }


def worker_report(node: run_pb2.NodeStatus) -> str:
    """The latest progress the worker of the node's attempt reported: its text, then its
    data (JSON); "" when it reported none."""
    if not node.HasField("progress"):
        return ""
    report = node.progress
    return " ".join(part for part in (report.text, report.data_json) if part)


async def runs_page(request: Request) -> Response:
    session = web.require_session(request)
    engine = web.console_of(request).engine
    state = request.query_params.get("state", "")
    states = [s for s in run_pb2.RunState.keys() if s != "RUN_STATE_UNSPECIFIED"]  # noqa: SIM118  # proto enums have keys(), not __iter__
    if state and state not in states:
        raise HTTPException(400, "unknown state")
    size = _page_size(request.query_params.get("size", "50"))
    token = request.query_params.get("page_token", "")[:512]
    work_order = request.query_params.get("work_order", "")[:128]  # the server checks it
    query = request.query_params.get("q", "").strip()[: search.MAX_QUERY]
    wanted = search.parse(query)
    chosen = wanted.state or state  # the search's word wins over the select
    runs: list[run_pb2.Run] = []
    next_page_token = ""
    try:
        if wanted.problem:
            pass
        elif wanted.run_id:  # one run, by its id: shown when it meets the other words too
            runs = await _run_by_id(engine, session, wanted, chosen, work_order)
        else:
            listing = run_pb2.ListRunsRequest(
                state=chosen or None,
                page_size=size,
                page_token=token,
                work_order_id=work_order,
                labels=dict(wanted.labels),
            )
            if wanted.ref is not None:
                listing.ref.CopyFrom(common_pb2.WorkflowRef(work_order_id=wanted.ref[0],
                                                            run_id=wanted.ref[1]))  # fmt: skip
            found = await engine.call(session.token, engine.runs.ListRuns, listing)
            runs, next_page_token = list(found.runs), found.next_page_token
    except ApiError as error:
        return web.error_page(request, error)
    return web.render(
        request,
        "runs.html",
        {
            "runs": runs,
            "next_page_token": next_page_token,
            "state": state,
            "work_order": work_order,
            "q": query,
            "search_problem": wanted.problem,
            "filtered": bool(query or state or work_order),
            "states": [enum_name(s, "RUN_STATE_") for s in states],
            "state_values": states,
            "size": size,
            "sizes": PAGE_SIZES,
            "first_page": not token,
            "state_name": state_name,
            "request_id": web.new_request_id(),
        },
    )


async def _run_by_id(
    engine: Engine, session: Session, wanted: search.RunSearch, state: str, work_order: str
) -> list[run_pb2.Run]:
    """The run a search names by id, if it exists and meets the search's other words."""
    try:
        got = await engine.call(
            session.token, engine.runs.GetRun, run_pb2.GetRunRequest(run_id=wanted.run_id)
        )
    except ApiError as error:
        if error.code in ("NOT_FOUND", "INVALID_ARGUMENT"):  # no run has that id
            return []
        raise
    run = got.run
    ref = (run.ref.work_order_id, run.ref.run_id) if run.ref.work_order_id else None
    also = search.RunSearch(state=state, ref=wanted.ref, labels=wanted.labels)
    if not search.matches(also, run_pb2.RunState.Name(run.state), ref, dict(run.labels)):
        return []
    return [run] if not work_order or run.work_order_id == work_order else []


def _page_size(text: str) -> int:
    try:
        size = int(text)
    except ValueError:
        return 50
    return size if size in PAGE_SIZES else 50


async def run_page(request: Request) -> Response:
    session = web.require_session(request)
    engine = web.console_of(request).engine
    run_id = request.path_params["run_id"]
    try:
        got = await engine.call(
            session.token,
            engine.runs.GetRun,
            run_pb2.GetRunRequest(run_id=run_id, include_definition=True),
        )
        run = got.run
        events = await engine.call(
            session.token,
            engine.events.ListEvents,
            event_pb2.ListEventsRequest(run_id=run_id, limit=EVENTS_SHOWN),
        )
        reconciliations = await engine.call(
            session.token,
            engine.reconciliations.ListReconciliations,
            reconciliation_pb2.ListReconciliationsRequest(run_id=run_id),
        )
        waits = await engine.call(
            session.token, engine.waits.ListWaits, wait_pb2.ListWaitsRequest(run_id=run_id)
        )
        items = await _items(engine, session, run, request.query_params.get("items_token", ""))
    except ApiError as error:
        return web.error_page(request, error)
    definition = str(got.definition_json)
    timeline = Timeline()
    for event in events.events:
        timeline.add(event)
    return web.render(
        request,
        "run.html",
        {
            "run": run,
            "state": state_name(run.state),
            "ended": run.state in TERMINAL,
            "decided": run.state in ENDING,
            "settling": settling(run),
            "graph": _run_graph(run, definition),
            "nodes": [
                node_summary(n, d) for n, d in with_items_done(run.nodes) if "#" not in n.node_uid
            ],
            "items": [node_summary(n) for n in items.nodes if "#" in n.node_uid],
            "items_next": items.next_page_token,
            "first_items_page": not request.query_params.get("items_token", ""),
            "expanded": sorted(_expanded(run)),
            "attempts": list(timeline.attempts.values()),
            "attempts_truncated": timeline.truncated,
            "events": [_event_row(e) for e in events.events],
            "events_more": bool(events.events) and len(events.events) >= EVENTS_SHOWN,
            "cursor": timeline.cursor,
            "reconciliations": reconciliations.reconciliations,
            "waits": waits.waits,
            "answer_forms": {w.wait_id: questions.form_of(w) for w in waits.waits},
            "enum_name": enum_name,
            "reconciliation_state": reconciliation_pb2.ReconciliationState.Name,
            "wait_state": wait_pb2.WaitState.Name,
            "wait_kind": wait_pb2.WaitKind.Name,
            "duration_ms": (run.finished_at_ms or run.updated_at_ms) - run.created_at_ms,
            "stop_outcome": _stop_outcome(request.query_params.get("stop", "")),
            "resumed": request.query_params.get("resumed", "") == "1",
            "request_id": web.new_request_id(),
        },
    )


def _stop_outcome(value: str) -> str:
    """What the page says after a stop: ``stopped``, ``stopping`` (its running attempts
    were asked to stop), ``ended`` (nothing to stop) or ''."""
    return value if value in ("stopped", "stopping", "ended") else ""


async def _items(engine: Engine, session: Session, run: run_pb2.Run, token: str) -> Any:
    """One page of fan-out items (ListRunNodes), or none when the run has no fan-out."""
    if not any(n.fanout_items for n in run.nodes):
        return run_pb2.ListRunNodesResponse()
    request = run_pb2.ListRunNodesRequest(
        run_id=run.run_id, page_size=ITEMS_PAGE, page_token=token[:512]
    )
    return await engine.call(session.token, engine.runs.ListRunNodes, request)


def _expanded(run: run_pb2.Run) -> frozenset[str]:
    """The fan-out nodes that have expanded into items."""
    return frozenset(n.node_id for n in run.nodes if n.fanout_items and "#" not in n.node_uid)


def _items_json(run_id: str, listed: Any) -> dict[str, Any]:
    """The first page of items for the live page, and where the next page is."""
    token = listed.next_page_token
    return {
        "items": [node_summary(n) for n in listed.nodes if "#" in n.node_uid],
        "more": f"/runs/{quote(run_id, safe='')}?items_token={quote(token, safe='')}"
        if token
        else "",
    }


def _run_graph(run: run_pb2.Run, definition: str) -> graph.Graph:
    nodes = graph.parse_nodes(definition)
    if nodes:
        return graph.layout(nodes)
    return graph.layout_without_edges([n.node_id for n in run.nodes if "#" not in n.node_uid])


def _event_row(event: event_pb2.Event) -> dict[str, Any]:
    return {
        "seq": event.seq,
        "at": web.format_ms(event.at_ms),
        "kind": enum_name(event_pb2.EventKind.Name(event.kind), "EVENT_KIND_"),
        "node_uid": event.node_uid,
        "payload": event.payload_json,
    }


async def run_live(request: Request) -> Response:
    """Server-sent events: ``run`` snapshots, ``log`` events with the attempt they
    changed, and ``end`` once the run has ended. Bounded per session and in all."""
    session = web.require_session(request)
    console = web.console_of(request)
    run_id = request.path_params["run_id"]
    try:
        after = max(0, int(request.query_params.get("after", "0")))
    except ValueError:
        raise HTTPException(400, "after must be an integer") from None
    # The fan-out nodes whose items the page already lists.
    expanded = frozenset(filter(None, request.query_params.get("expanded", "")[:8192].split(",")))
    if (
        console.live_streams.get(session.session_id, 0) >= console.max_streams_per_session
        or sum(console.live_streams.values()) >= console.max_streams
    ):
        return Response("too many live views", status_code=429)
    return StreamingResponse(
        web.until_closing(console, _live(console, session, run_id, after, expanded)),
        media_type="text/event-stream",
        headers={"cache-control": "no-store", "x-accel-buffering": "no"},
    )


async def _live(
    console: web.Console, session: Session, run_id: str, after: int, expanded: frozenset[str]
) -> AsyncGenerator[str, None]:
    console.live_streams[session.session_id] = console.live_streams.get(session.session_id, 0) + 1
    queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue(maxsize=256)
    tasks = [
        asyncio.create_task(_pump_runs(console.engine, session, run_id, queue)),
        asyncio.create_task(_pump_events(console.engine, session, run_id, after, queue)),
    ]
    timeline = Timeline()
    try:
        if after:
            try:
                await _replay(console.engine, session, run_id, after, timeline)
            except ApiError as error:
                yield _sse("problem", {"reason": error.reason, "code": error.code})
                return
        final = ""
        while True:
            try:
                kind, body = await asyncio.wait_for(queue.get(), HEARTBEAT_S)
            except TimeoutError:
                kind, body = "idle", None
            if not console.sessions.alive(session.session_id):
                yield _sse("problem", {"reason": "SIGNED_OUT", "code": "UNAUTHENTICATED"})
                return
            if kind == "idle":
                yield ": keep-alive\n\n"
                continue
            if kind == "log":
                attempt = timeline.add(body)
                row = _event_row(body)
                row["attempt"] = _attempt_json(attempt)
                yield _sse("log", row)
            elif kind == "run":
                yield _sse("run", run_summary(body))
                if _expanded(body) - expanded:
                    # A fan-out expanded since the page was drawn: send its first items
                    # (a large run's snapshot omits them, so they are listed).
                    expanded = _expanded(body)
                    listed, _error = await console.engine.read(
                        session.token,
                        console.engine.runs.ListRunNodes,
                        run_pb2.ListRunNodesRequest(run_id=run_id, page_size=ITEMS_PAGE),
                    )
                    if listed is not None:
                        yield _sse("items", _items_json(run_id, listed))
                if body.state in TERMINAL:
                    final = state_name(body.state)
            elif kind == "error":
                yield _sse("problem", {"reason": body.reason, "code": body.code})
                return
            if final:
                await asyncio.sleep(0.3)  # let the last events of the run arrive
                while not queue.empty():
                    kind, body = queue.get_nowait()
                    if kind == "log":
                        attempt = timeline.add(body)
                        row = _event_row(body)
                        row["attempt"] = _attempt_json(attempt)
                        yield _sse("log", row)
                yield _sse("end", {"state": final})
                return
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        left = console.live_streams.get(session.session_id, 1) - 1
        if left:
            console.live_streams[session.session_id] = left
        else:
            console.live_streams.pop(session.session_id, None)


async def _replay(
    engine: Engine, session: Session, run_id: str, after: int, timeline: Timeline
) -> None:
    """Rebuilds the attempts the page already shows, so live rows update them."""
    cursor = 0
    while cursor < after:
        page = await engine.call(
            session.token,
            engine.events.ListEvents,
            event_pb2.ListEventsRequest(run_id=run_id, after=cursor, limit=1000),
        )
        if not page.events:
            return
        for event in page.events:
            if event.seq <= after:
                timeline.add(event)
        cursor = page.next_after


async def _pump_runs(
    engine: Engine, session: Session, run_id: str, queue: asyncio.Queue[tuple[str, Any]]
) -> None:
    try:
        async for run in engine.watch_run(session.token, run_id):
            await queue.put(("run", run))
    except ApiError as error:
        await queue.put(("error", error))


async def _pump_events(
    engine: Engine,
    session: Session,
    run_id: str,
    after: int,
    queue: asyncio.Queue[tuple[str, Any]],
) -> None:
    try:
        async for event in engine.stream_events(session.token, run_id, after):
            await queue.put(("log", event))
    except ApiError as error:
        await queue.put(("error", error))


def _attempt_json(attempt: Any) -> dict[str, Any] | None:
    if attempt is None:
        return None
    found: dict[str, Any] = attempt.as_json()
    found["dispatched_at"] = web.format_ms(attempt.dispatched_at_ms)
    found["ended_at"] = web.format_ms(attempt.ended_at_ms)
    return found


def _sse(event: str, data: Any) -> str:
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


async def start_run(request: Request) -> Response:
    session, form = await web.checked_form(request)
    engine = web.console_of(request).engine
    start = run_pb2.StartRunRequest(
        request_id=web.field_text(form, "request_id", 128),
        input_json=web.field_text(form, "input_json", 256 * 1024),
        contract_id=web.field_text(form, "contract_id", 128),
    )
    definition = web.field_text(form, "definition_json", 256 * 1024)
    if definition:
        start.definition_json = definition
    else:
        start.ref.CopyFrom(
            common_pb2.WorkflowRef(
                work_order_id=web.field_text(form, "work_order_id", 128),
                run_id=web.field_text(form, "ref_run_id", 128),
            )
        )
    try:
        started = await engine.call(session.token, engine.runs.StartRun, start)
    except ApiError as error:
        return web.error_page(request, error)
    return web.redirect(f"/runs/{started.run.run_id}")


async def stop_run(request: Request) -> Response:
    """Stops a run, then shows its page saying what happened: stopped, or not stopped
    because it had already ended (StopRun returns an ended run unchanged, so the console
    asks first). A refusal shows the server's reason, with a way back to the run."""
    session, form = await web.checked_form(request)
    engine = web.console_of(request).engine
    run_id = request.path_params["run_id"]
    url = f"/runs/{quote(run_id, safe='')}"
    stop = run_pb2.StopRunRequest(run_id=run_id, reason=web.field_text(form, "reason", 1024))
    try:
        got = await engine.call(
            session.token, engine.runs.GetRun, run_pb2.GetRunRequest(run_id=run_id)
        )
        if got.run.state in TERMINAL:
            return web.redirect(f"{url}?stop=ended")
        stopped = await engine.call(session.token, engine.runs.StopRun, stop)
    except ApiError as error:
        return web.error_page(request, error, back=(url, "Back to the run"))
    outcome = {
        run_pb2.RUN_STATE_CANCELLED: "stopped",
        run_pb2.RUN_STATE_CANCELLING: "stopping",
    }.get(stopped.run.state, "ended")
    return web.redirect(f"{url}?stop={outcome}")


ROUTES = [
    Route("/runs", runs_page, methods=["GET"]),
    Route("/runs", start_run, methods=["POST"]),
    Route("/runs/{run_id}", run_page, methods=["GET"]),
    Route("/runs/{run_id}/live", run_live, methods=["GET"]),
    Route("/runs/{run_id}/stop", stop_run, methods=["POST"]),
]
