"""The Python conformance runner (see conformance/README.md for the contract).

Usage::

    python conformance/runners/python/praxis_conformance.py \\
        --address 127.0.0.1:50051 --credentials creds.json [--vectors DIR] [--results FILE]

It calls the server through the generated Python client (``praxis_client`` and the
``aiws`` stubs; server streams through the generated service stubs), builds requests
from proto-JSON with ``google.protobuf.json_format`` and prints ``N passed, N failed``.
``tests/conformance`` imports it to run the same vectors in-process.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import queue
import re
import secrets
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

LANGUAGE = "python"
NS_CODE = "py"
ROOT = Path(__file__).resolve().parents[2]  # conformance/
ANY = "<any>"
_MISSING = object()
_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)([+-][0-9]+)?\}")
SERVICE_PACKAGES = ("aiws.engine.v1", "aiws.engine.testing.v1")
STREAM_DEADLINE_S = 5.0  # how long one stream step may wait for its messages and end


@dataclass(frozen=True)
class Outcome:
    """What one call produced: a proto-JSON response, a status, or a local refusal."""

    response: Any = None
    code: str = ""
    reason: str = ""
    client_error: str = ""


Invoke = Callable[[str, str, str, Any], Outcome]
"""(principal, service, method, proto-JSON request) -> Outcome."""


class VectorError(Exception):
    """A step did not match its expectation (or the vector itself is broken)."""


@dataclass(frozen=True)
class End:
    """How a server stream ended: ``OK`` or a failure's code name and ErrorInfo reason."""

    code: str = "OK"
    reason: str = ""


class Stream:
    """An open server stream: a reader thread moves its items into a queue, so that a
    step can wait for the next one with a deadline. Items are proto-JSON messages and,
    last, one ``End``."""

    def __init__(self, items: Iterator[Any], cancel: Callable[[], None]) -> None:
        self._queue: queue.Queue[Any] = queue.Queue()
        self._cancel = cancel
        self.ended: End | None = None
        thread = threading.Thread(target=self._pump, args=(items,), daemon=True)
        thread.start()

    def _pump(self, items: Iterator[Any]) -> None:
        try:
            for item in items:
                self._queue.put(item)
                if isinstance(item, End):
                    return
            self._queue.put(End())
        except Exception as error:  # a reader fault ends the stream visibly
            self._queue.put(End("RUNNER_ERROR", repr(error)))

    def next(self, deadline: float) -> Any:
        """The next message, an ``End`` once the stream is over, or ``None`` on timeout."""
        if self.ended is not None:
            return self.ended
        try:
            item = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            return None
        if isinstance(item, End):
            self.ended = item
        return item

    def cancel(self) -> None:
        """Cancels the call (no effect once it has ended)."""
        if self.ended is None:
            with contextlib.suppress(Exception):
                self._cancel()


def ended_stream(end: End) -> Stream:
    """A stream that failed before it started (for example, no credential)."""
    return Stream(iter([end]), lambda: None)


OpenStream = Callable[[str, str, str, Any], "Stream | Outcome"]
"""(principal, service, method, proto-JSON request) -> Stream, or an Outcome carrying the
client's refusal of the request."""


# --- substitution, matching, captures -----------------------------------------------


def substitute(value: Any, variables: dict[str, str]) -> Any:
    """Replaces every ``${name}`` / ``${name+N}`` / ``${name-N}`` in the strings of ``value``."""
    if isinstance(value, str):

        def replace(match: re.Match[str]) -> str:
            name, offset = match.group(1), match.group(2)
            if name not in variables:
                raise VectorError(f"unknown variable ${{{name}}}")
            text = variables[name]
            return str(int(text) + int(offset)) if offset else text

        return _VAR.sub(replace, value)
    if isinstance(value, list):
        return [substitute(item, variables) for item in value]
    if isinstance(value, dict):
        return {key: substitute(item, variables) for key, item in value.items()}
    return value


def mismatch(expected: Any, actual: Any, path: str = "response") -> str | None:
    """Why ``actual`` does not match the pattern ``expected``, or ``None`` when it does."""
    if expected == ANY:
        return None if actual is not _MISSING else f"{path}: missing"
    if expected is None:
        return None if actual is _MISSING else f"{path}: expected absent, got {_show(actual)}"
    if actual is _MISSING:
        return f"{path}: missing, expected {_show(expected)}"
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return f"{path}: expected an object, got {_show(actual)}"
        for key, item in expected.items():
            problem = mismatch(item, actual.get(key, _MISSING), f"{path}.{key}")
            if problem:
                return problem
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return f"{path}: expected {len(expected)} items, got {_show(actual)}"
        for index, (want, got) in enumerate(zip(expected, actual, strict=True)):
            problem = mismatch(want, got, f"{path}.{index}")
            if problem:
                return problem
        return None
    if type(expected) is not type(actual) or expected != actual:
        return f"{path}: expected {_show(expected)}, got {_show(actual)}"
    return None


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if value is not _MISSING else "(absent)"
    return text if len(text) <= 200 else text[:200] + "..."


def capture(response: Any, path: str) -> str:
    """The value at a dotted path of a proto-JSON response, as text."""
    value = response
    for part in path.split("."):
        if isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        elif isinstance(value, dict) and part in value:
            value = value[part]
        else:
            raise VectorError(f"capture {path!r}: no such value in the response")
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, str)):
        return str(value)
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


# --- running vectors ----------------------------------------------------------------


@dataclass
class Runner:
    """Runs vectors through one ``Invoke``; every vector gets a fresh namespace."""

    invoke: Invoke
    ns_code: str = NS_CODE
    nonce: str = ""
    installation_id: str = ""
    open_stream: OpenStream | None = None
    _streams: dict[str, Stream] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.nonce = self.nonce or secrets.token_hex(3)

    def setup(self) -> None:
        """Reads the installation id once (GetEpochs as alice)."""
        outcome = self.invoke(
            "alice", "RegistryService", "GetEpochs", {"workOrderId": f"{self.ns_code}-setup"}
        )
        if outcome.response is None:
            raise RuntimeError(f"GetEpochs failed: {outcome}")
        self.installation_id = outcome.response["epochs"]["installationId"]

    def run_vector(self, vector: dict[str, Any], index: int) -> None:
        """Runs one vector; raises VectorError at the first step that does not match."""
        variables = {
            "ns": f"{self.ns_code}-{self.nonce}-{index:04d}",
            "installation_id": self.installation_id,
        }
        start = self._clock({"advanceMs": "1000"})
        variables["t0"] = start
        try:
            for number, step in enumerate(vector.get("steps", []), start=1):
                try:
                    self._step(step, variables)
                except VectorError as error:
                    raise VectorError(f"step {number}: {error}") from None
        finally:
            for stream in self._streams.values():
                stream.cancel()
            self._streams.clear()

    def _clock(self, change: dict[str, str], t0: str = "0") -> str:
        if "advanceMs" in change:
            outcome = self.invoke(
                "alice", "TestClockService", "Advance", {"byMs": change["advanceMs"]}
            )
        else:
            now = int(t0) + int(change["setOffsetMs"])
            outcome = self.invoke("alice", "TestClockService", "SetTime", {"nowMs": str(now)})
        if outcome.response is None:
            raise VectorError(f"test clock call failed: {outcome}")
        return str(outcome.response["nowMs"])

    def _step(self, step: dict[str, Any], variables: dict[str, str]) -> None:
        if "clock" in step:
            self._clock(step["clock"], variables["t0"])
        if "stream" in step:
            self._stream_step(step, variables)
            return
        if not step.get("service"):
            return
        request = substitute(step.get("request", {}), variables)
        outcome = self.invoke(step.get("principal", ""), step["service"], step["method"], request)
        where = f"{step['service']}.{step['method']}"
        if "error" in step:
            want = (step["error"].get("code", ""), step["error"].get("reason", ""))
            if outcome.response is not None:
                raise VectorError(f"{where}: expected {want}, got a response")
            if outcome.client_error:
                raise VectorError(
                    f"{where}: expected {want}, client refused: {outcome.client_error}"
                )
            if (outcome.code, outcome.reason) != want:
                raise VectorError(f"{where}: expected {want}, got {(outcome.code, outcome.reason)}")
            return
        if "clientError" in step:
            if not outcome.client_error:
                got = "a response" if outcome.response is not None else outcome.code
                raise VectorError(f"{where}: expected the client to refuse, got {got}")
            return
        if outcome.response is None:
            detail = outcome.client_error or f"{outcome.code} {outcome.reason}"
            raise VectorError(f"{where}: expected a response, got {detail}")
        problem = mismatch(substitute(step.get("response", {}), variables), outcome.response)
        if problem:
            raise VectorError(f"{where}: {problem}")
        for name, path in step.get("captures", {}).items():
            variables[name] = capture(outcome.response, path)

    def _stream_step(self, step: dict[str, Any], variables: dict[str, str]) -> None:
        want = step["stream"]
        resume = want.get("resume", "")
        if resume:
            where = f"stream {resume!r}"
            if resume not in self._streams:
                raise VectorError(f"{where}: no stream kept under that name")
            stream = self._streams.pop(resume)
        else:
            where = f"{step['service']}.{step['method']}"
            if self.open_stream is None:
                raise VectorError(f"{where}: this runner cannot open streams")
            request = substitute(step.get("request", {}), variables)
            opened = self.open_stream(
                step.get("principal", ""), step["service"], step["method"], request
            )
            if isinstance(opened, Outcome):
                raise VectorError(f"{where}: client refused: {opened.client_error}")
            stream = opened
        try:
            received = self._read(stream, want, where)
        except VectorError:
            stream.cancel()
            raise
        problem = mismatch(substitute(want.get("messages", []), variables), received, "messages")
        if problem:
            stream.cancel()
            raise VectorError(f"{where}: {problem}")
        keep = resume or want.get("keep", "")
        if keep and stream.ended is None and not ("end" in want or "error" in want):
            self._streams[keep] = stream
        else:
            stream.cancel()
        for name, path in step.get("captures", {}).items():
            variables[name] = capture(received, path)

    @staticmethod
    def _read(stream: Stream, want: dict[str, Any], where: str) -> list[Any]:
        """Reads the step's messages (and its end); raises when the stream disagrees."""
        count = len(want.get("messages", []))
        deadline = time.monotonic() + STREAM_DEADLINE_S
        received: list[Any] = []
        while len(received) < count:
            item = stream.next(deadline)
            if item is None:
                raise VectorError(
                    f"{where}: expected {count} messages within {STREAM_DEADLINE_S:g} s, "
                    f"got {len(received)}"
                )
            if isinstance(item, End):
                raise VectorError(
                    f"{where}: expected {count} messages, got {len(received)} and then "
                    f"the stream ended with ({item.code}, {item.reason})"
                )
            received.append(item)
        expected_end = None
        if want.get("end"):
            expected_end = End()
        elif "error" in want:
            expected_end = End(want["error"].get("code", ""), want["error"].get("reason", ""))
        if expected_end is not None:
            item = stream.next(deadline)
            if item is None:
                raise VectorError(
                    f"{where}: expected the stream to end within {STREAM_DEADLINE_S:g} s"
                )
            if not isinstance(item, End):
                raise VectorError(f"{where}: expected the stream to end, got {_show(item)}")
            if item != expected_end:
                raise VectorError(
                    f"{where}: expected the stream to end with "
                    f"({expected_end.code}, {expected_end.reason}), "
                    f"got ({item.code}, {item.reason})"
                )
        return received


def load_vectors(directory: Path) -> list[dict[str, Any]]:
    """Every vector of every ``*.json`` file, files in name order."""
    vectors: list[dict[str, Any]] = []
    for path in sorted(directory.glob("*.json")):
        vectors.extend(json.loads(path.read_text(encoding="utf-8")).get("vectors", []))
    return vectors


def load_expected_failures(path: Path) -> set[str]:
    """Vector names listed one per line; blank lines and ``#`` comments ignored."""
    if not path.exists():
        return set()
    names = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            names.add(line)
    return names


def run_all(
    runner: Runner, vectors: list[dict[str, Any]], expected: set[str], name_filter: str = ""
) -> list[dict[str, str]]:
    """Runs the vectors and returns one result record per vector."""
    results = []
    for index, vector in enumerate(vectors):
        name = vector["name"]
        if name_filter and name_filter not in name:
            continue
        try:
            runner.run_vector(vector, index)
            passed, message = True, ""
        except VectorError as error:
            passed, message = False, str(error)
        except Exception as error:  # a runner fault fails the vector, not the run
            passed, message = False, f"runner error: {error!r}"
        if name in expected:
            status = "xpass" if passed else "xfail"
        else:
            status = "pass" if passed else "fail"
        results.append({"vector": name, "status": status, "message": message})
    return results


def report(results: list[dict[str, str]], results_path: str | None, out: Any = sys.stdout) -> int:
    """Prints failures and ``N passed, N failed``; writes JSON lines; the exit status."""
    for result in results:
        if result["status"] == "fail":
            print(f"FAIL {result['vector']}: {result['message']}", file=out)
        elif result["status"] == "xpass":
            print(f"XPASS {result['vector']}: listed as an expected failure but passed", file=out)
    if results_path:
        with open(results_path, "w", encoding="utf-8") as handle:
            for result in results:
                handle.write(
                    json.dumps({"language": LANGUAGE, **result}, ensure_ascii=False) + "\n"
                )
    passed = sum(result["status"] == "pass" for result in results)
    failed = sum(result["status"] in ("fail", "xpass") for result in results)
    xfailed = sum(result["status"] == "xfail" for result in results)
    print(
        f"{passed} passed, {failed} failed" + (f", {xfailed} expected failures" if xfailed else ""),
        file=out,
    )
    return 1 if failed else 0


# --- the gRPC invoker ---------------------------------------------------------------


ROUND_ROBIN = (("grpc.lb_policy_name", "round_robin"),)
"""Channel options that spread calls over every address listed (``ipv4:a:1,b:2``)."""


def grpc_invoker(address: str, credentials: dict[str, str]) -> Invoke:
    """An ``Invoke`` over the generated client: one channel per principal."""
    return grpc_callers(address, credentials)[0]


def grpc_callers(
    address: str, credentials: dict[str, str], round_robin: bool = False
) -> tuple[Invoke, OpenStream]:
    """An ``Invoke`` and an ``OpenStream`` over the generated client: one channel per
    principal, shared by both. ``round_robin``: ``address`` lists several servers
    (replicas on one database) and each channel alternates its calls between them."""
    import grpc
    from google.protobuf import descriptor_pool, json_format, message_factory

    # Importing the stubs registers every service in the default descriptor pool.
    from aiws.engine.testing.v1 import clock_pb2  # noqa: F401
    from aiws.engine.v1 import (  # noqa: F401
        admin_pb2,
        approval_pb2,
        assessment_pb2,
        contract_pb2,
        event_pb2,
        handoff_pb2,
        notification_pb2,
        reconciliation_pb2,
        registry_pb2,
        run_pb2,
        schedule_pb2,
        task_pb2,
        wait_pb2,
    )
    from praxis_client import connect, error_details

    pool = descriptor_pool.Default()
    clients: dict[str, Any] = {}

    def client_for(principal: str) -> Any:
        if principal not in clients:
            if principal and principal not in credentials:
                raise VectorError(f"no credential for principal {principal!r}")
            token = credentials[principal] if principal else None
            if round_robin:  # a list of loopback replicas: connect() cannot tell it is one
                clients[principal] = connect(address, token, insecure=True, options=ROUND_ROBIN)
            else:
                clients[principal] = connect(address, token)
        return clients[principal]

    def find(service: str, method: str) -> Any:
        names = [service] if "." in service else [f"{p}.{service}" for p in SERVICE_PACKAGES]
        for name in names:
            try:
                found = pool.FindServiceByName(name)
            except KeyError:
                continue
            if method not in found.methods_by_name:
                raise VectorError(f"service {name} has no method {method}")
            return found.methods_by_name[method]
        raise VectorError(f"unknown service {service}")

    def invoke(principal: str, service: str, method: str, request: Any) -> Outcome:
        descriptor = find(service, method)
        request_class = message_factory.GetMessageClass(descriptor.input_type)
        response_class = message_factory.GetMessageClass(descriptor.output_type)
        try:
            message = json_format.ParseDict(request, request_class())
        except json_format.ParseError as error:
            return Outcome(client_error=str(error))
        call = client_for(principal).channel.unary_unary(
            f"/{descriptor.containing_service.full_name}/{descriptor.name}",
            request_serializer=request_class.SerializeToString,
            response_deserializer=response_class.FromString,
        )
        try:
            response = call(message, timeout=30)
        except grpc.RpcError as error:
            details = error_details(error)
            return Outcome(code=details.code.name, reason=details.reason)
        return Outcome(response=json_format.MessageToDict(response))

    def open_stream(principal: str, service: str, method: str, request: Any) -> Stream | Outcome:
        descriptor = find(service, method)
        if not descriptor.server_streaming:
            raise VectorError(f"{descriptor.full_name} is not a server stream")
        request_class = message_factory.GetMessageClass(descriptor.input_type)
        try:
            message = json_format.ParseDict(request, request_class())
        except json_format.ParseError as error:
            return Outcome(client_error=str(error))
        # The generated stub of the service (``aiws/engine/v1/run.proto`` ->
        # ``aiws.engine.v1.run_pb2_grpc.RunServiceStub``).
        service_descriptor = descriptor.containing_service
        module = importlib.import_module(
            service_descriptor.file.name.removesuffix(".proto").replace("/", ".") + "_pb2_grpc"
        )
        stub = getattr(module, f"{service_descriptor.name}Stub")(client_for(principal).channel)
        call = getattr(stub, descriptor.name)(message, timeout=120)

        def items() -> Iterator[Any]:
            try:
                for response in call:
                    yield json_format.MessageToDict(response)
            except grpc.RpcError as error:
                details = error_details(error)
                yield End(details.code.name, details.reason)

        return Stream(items(), call.cancel)

    return invoke, open_stream


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--address", default=os.environ.get("PRAXIS_ADDRESS", "127.0.0.1:50051"))
    parser.add_argument("--credentials", default=os.environ.get("PRAXIS_CREDENTIALS"))
    parser.add_argument(
        "--vectors", default=os.environ.get("PRAXIS_VECTORS", str(ROOT / "vectors"))
    )
    parser.add_argument(
        "--expected-failures", default=str(ROOT / "expected_failures" / f"{LANGUAGE}.txt")
    )
    parser.add_argument("--results", default=os.environ.get("PRAXIS_RESULTS"))
    parser.add_argument("--filter", default="", help="run only vectors whose name contains this")
    parser.add_argument(
        "--round-robin",
        action="store_true",
        help="--address lists replicas (ipv4:HOST:PORT,HOST:PORT): alternate calls over them",
    )
    args = parser.parse_args(argv)
    if not args.credentials:
        parser.error("--credentials (or PRAXIS_CREDENTIALS) is required")
    credentials = json.loads(Path(args.credentials).read_text(encoding="utf-8"))
    invoke, open_stream = grpc_callers(args.address, credentials, args.round_robin)
    runner = Runner(invoke, open_stream=open_stream)
    runner.setup()
    results = run_all(
        runner,
        load_vectors(Path(args.vectors)),
        load_expected_failures(Path(args.expected_failures)),
        args.filter,
    )
    return report(results, args.results)


if __name__ == "__main__":
    sys.exit(main())
