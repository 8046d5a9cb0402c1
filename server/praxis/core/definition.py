"""Workflow definitions: parse a ``version: 1`` document and check every rule at once.

Document shape::

    {"$schema": "<address of docs/definition.schema.json, optional, for editors>",
     "version": 1,
     "default_functions": <policy, optional>,
     "nodes": {"<id>": {
         "agent": {"model": "echo", "system_prompt": "...", "provider": "...",
                   "functions": <policy>, "output": {"type": "json", "schema": {...}}},
         "input": {"from": "run_input" | "node:<id>" | "fanout_item" | ["node:<a>", ...],
                   "template": "..."},
         "depends_on": ["<id>", ...],
         "fanout": {"over": "node:<dep>.<path>"},
         "timeout_ms": 60000,
         "schedule_to_start_ms": 3600000,
         "retry": {"attempts": 3, "backoff_ms": 1000, "max_backoff_ms": 60000},
         "max_cost_microcredits": "250000",
         "effects": "none" | "idempotent" | "external"}},
     "output": {"from": "node:<id>"}}

Wait nodes (``"kind": "human_input" | "timer" | "authorization"``) have no agent; they
name a ``wait`` block instead, their ``input`` is optional and their ``depends_on`` may
only order them::

    "approve": {"kind": "authorization", "depends_on": ["draft"],
                "wait": {"expires_in_ms": 86400000, "schema": {"type": "object"},
                         "on_expiry": "fail" | "default", "default": {...},
                         "purpose": "payments"}}

A ``human_input`` wait may carry the ``question`` a person reads (plain text, at most
:data:`MAX_QUESTION_CHARS` characters) and ``choices``: up to :data:`MAX_CHOICES`
distinct strings of at most :data:`MAX_CHOICE_CHARS` characters offered as one-click
answers. Every choice must match the wait's schema; a wait with choices and no schema
takes ``{"type": "string", "enum": choices}``, so that the answer is one of them::

    "ask": {"kind": "human_input",
            "wait": {"expires_in_ms": 3600000, "on_expiry": "fail",
                     "question": "Ship the draft to the customer?",
                     "choices": ["ship", "hold"]}}

The payload that satisfies a wait (or its default) becomes the node's result. Only an
``authorization`` wait may declare a ``purpose`` (:mod:`praxis.core.purposes`):
satisfying it and approving it then need grants that cover that purpose (see
:mod:`praxis.core.authorization`).

``schedule_to_start_ms`` bounds how long an agent node may stay ready with no worker
claiming it (default :data:`DEFAULT_SCHEDULE_TO_START_MS`, one hour; ``0`` waits for
ever): past it the node fails with SCHEDULE_TO_START_TIMEOUT, naming its model.

``effects`` declares what repeating an agent node's work does (:data:`EFFECTS`): ``none``
(no external effect) and ``idempotent`` (repeating it under its operation id is harmless)
are retried automatically after an attempt that ended without the worker's report (lease
lost, timeout, crash, stopped run); ``external``, and a node that declares nothing (the
safe default), block instead, with the effect UNCERTAIN, until a human reconciles it.

:func:`parse` reports every problem in one ``DEFINITION_INVALID`` rejection whose field
violations name each one; when the only problems are unknown models the reason is
``MODEL_UNKNOWN`` and the violations list the models the engine knows.

``docs/definition.schema.json`` states the same format as a JSON Schema (draft 2020-12)
for editors and for ``docs/definitions.md``; :data:`SERVER_RULES` lists the rules this
module checks beyond it (tests/unit/docs/test_definition_schema.py holds them to one
verdict on every definition of the conformance vectors and the tests).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from praxis.core import functions, jsonschema, money, purposes, values
from praxis.core.rejection import Code, FieldViolation, Rejection

MAX_TIMEOUT_MS = 7 * 24 * 3600 * 1000
DEFAULT_SCHEDULE_TO_START_MS = 3600 * 1000
"""How long a ready agent node waits for a worker's claim when its definition does not
say (``schedule_to_start_ms``)."""
MAX_ATTEMPTS = 100
MAX_PROVIDER_CHARS = 256
"""Characters of a node's ``agent.provider`` (the provider its worker runs the model with)."""
MAX_BACKOFF_MS = 24 * 3600 * 1000

_TOP_KEYS = frozenset({"$schema", "version", "nodes", "output", "default_functions"})
_NODE_KEYS = frozenset(
    {
        "agent",
        "input",
        "depends_on",
        "fanout",
        "timeout_ms",
        "schedule_to_start_ms",
        "retry",
        "kind",
        "wait",
        "max_cost_microcredits",
        "effects",
    }
)
EFFECTS = ("none", "idempotent", "external")
"""The values of a node's ``effects`` declaration; undeclared (``""``) is treated as
``external``."""
RETRY_SAFE = frozenset({"none", "idempotent"})
WAIT_KINDS = ("human_input", "timer", "authorization")
_WAIT_KEYS = frozenset(
    {"expires_in_ms", "schema", "on_expiry", "default", "purpose", "question", "choices"}
)
MAX_QUESTION_CHARS = 4_096
"""Characters of a ``human_input`` wait's ``question``."""
MAX_CHOICES = 20
"""Choices a ``human_input`` wait offers."""
MAX_CHOICE_CHARS = 200
"""Characters of one choice."""
MAX_WAIT_MS = 90 * 24 * 3600 * 1000
_AGENT_KEYS = frozenset({"model", "system_prompt", "provider", "functions", "output"})
_INPUT_KEYS = frozenset({"from", "template"})
_RETRY_KEYS = frozenset({"attempts", "backoff_ms", "max_backoff_ms"})


@dataclass(frozen=True)
class Limits:
    """Caps on definitions and runs (configurable per server)."""

    max_nodes: int = 10_000
    max_fanout_items: int = 10_000
    max_run_nodes: int = 50_000
    max_result_bytes: int = 1024 * 1024
    max_input_bytes: int = 2 * 1024 * 1024
    """A node's gathered input (joins of several results, fan-out items) as JSON."""


DEFAULT_LIMITS = Limits()


@dataclass(frozen=True)
class RetryPolicy:
    """How often a node is attempted and how long to wait between attempts."""

    attempts: int = 3
    backoff_ms: int = 1_000
    max_backoff_ms: int = 60_000

    def delay_ms(self, failed_attempts: int) -> int:
        """Exponential backoff after ``failed_attempts`` failures (1, 2, 4, ... times base)."""
        exponent = min(max(failed_attempts - 1, 0), 40)
        return int(min(self.backoff_ms * (2**exponent), self.max_backoff_ms))


@dataclass(frozen=True)
class OutputContract:
    """What a node returns: ``json`` (checked against ``schema``) or ``text`` (a string)."""

    kind: str = "text"
    schema: values.JsonValue = None


@dataclass(frozen=True)
class Agent:
    """The agent a node asks a worker to run."""

    model: str
    system_prompt: str = ""
    provider: str = ""
    functions: values.JsonValue = None
    output: OutputContract = field(default_factory=OutputContract)


@dataclass(frozen=True)
class Source:
    """Where a node's input comes from.

    Attributes:
        kind: ``run_input``, ``node``, ``fanout_item`` or ``join``.
        nodes: The node ids read (one for ``node``, several for ``join``).
    """

    kind: str
    nodes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Fanout:
    """Per-item parallelism over an array in a dependency's result."""

    node: str
    path: tuple[str, ...]

    @property
    def path_text(self) -> str:
        """The dotted path (empty for the whole result)."""
        return ".".join(self.path)


@dataclass(frozen=True)
class WaitSpec:
    """How a wait node waits.

    Attributes:
        expires_in_ms: How long after it opens the wait expires.
        schema: The JSON schema a satisfying payload must match.
        on_expiry: ``fail`` or ``default``.
        default: The result taken on expiry when ``on_expiry`` is ``default``.
        purpose: The purpose an ``authorization`` wait declares (empty: none).
        question: The question a ``human_input`` wait asks a person (empty: none).
        choices: The answers a ``human_input`` wait offers (empty: none).
    """

    expires_in_ms: int
    schema: values.JsonValue
    on_expiry: str
    default: values.JsonValue = None
    purpose: str = ""
    question: str = ""
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class Node:
    """One validated node.

    Attributes:
        spec_digest: Digest of the node's resolved spec; a revision may change a node
            only while it has not been dispatched, and this is how changes are seen.
        kind: ``agent`` or one of :data:`WAIT_KINDS`.
        wait: The wait block of a wait node.
        max_cost: The declared maximum cost of one attempt (canonical decimal; empty
            when undeclared); dispatch needs this much left in the budget.
        effects: What repeating the node's work does (:data:`EFFECTS`, ``""`` when
            undeclared).
        schedule_to_start_ms: How long the node may stay ready unclaimed (0: no limit;
            wait nodes have none).
    """

    node_id: str
    agent: Agent
    source: Source
    template: str
    depends_on: tuple[str, ...]
    fanout: Fanout | None
    timeout_ms: int
    retry: RetryPolicy
    spec_digest: str
    kind: str = "agent"
    wait: WaitSpec | None = None
    max_cost: str = ""
    effects: str = ""
    schedule_to_start_ms: int = DEFAULT_SCHEDULE_TO_START_MS

    @property
    def retry_safe(self) -> bool:
        """Whether an attempt that ended without the worker's report may simply run
        again: only when the node declared no external effect, or an idempotent one."""
        return self.effects in RETRY_SAFE


@dataclass(frozen=True)
class Definition:
    """A validated definition.

    Attributes:
        nodes: Nodes by id, in document order.
        output: The id of the node whose result is the run's.
        required: The output node and its transitive dependencies.
        dependents: For each node, the nodes that depend on it.
        fanout_consumers: For each node, the nodes that fan out over it.
        digest: ``sha256`` of the canonical document.
        document: The document as given.
    """

    nodes: Mapping[str, Node]
    output: str
    required: frozenset[str]
    dependents: Mapping[str, tuple[str, ...]]
    fanout_consumers: Mapping[str, tuple[str, ...]]
    digest: str
    document: values.JsonValue


MAX_WARNED_NODES = 100
"""Node ids one :class:`DefinitionWarning` lists (its ``node_count`` says how many in all)."""


@dataclass(frozen=True)
class DefinitionWarning:
    """Something about an accepted definition its author may not expect; never a refusal.

    Attributes:
        kind: ``EFFECTS_UNDECLARED`` (the only kind so far).
        node_ids: The nodes concerned, sorted, at most :data:`MAX_WARNED_NODES`.
        node_count: How many nodes it concerns in all.
        message: What it means and what to do, for a person.
    """

    kind: str
    node_ids: tuple[str, ...]
    node_count: int
    message: str


def warnings(document: values.JsonValue) -> tuple[DefinitionWarning, ...]:
    """What to tell the author of a definition :func:`parse` accepted: the agent nodes
    that declare no ``effects``, which are treated as ``external`` (a crash, timeout,
    lost lease or stop during an attempt blocks the node as UNCERTAIN until a human
    reconciles it, where ``none`` or ``idempotent`` would retry it)."""
    nodes = document.get("nodes") if isinstance(document, dict) else None
    if not isinstance(nodes, dict):
        return ()
    silent = sorted(  # sorted: a stored definition's keys are in canonical order anyway
        node_id
        for node_id, node in nodes.items()
        if isinstance(node, dict) and node.get("kind", "agent") == "agent" and "effects" not in node
    )
    if not silent:
        return ()
    shown = ", ".join(silent[:5]) + (f" and {len(silent) - 5} more" if len(silent) > 5 else "")
    message = (
        f"{len(silent)} agent node(s) declare no effects ({shown}), so they are treated as "
        "external: a crash, timeout, lost lease or stop during an attempt, or an uncaught "
        "exception in the worker, blocks the node as UNCERTAIN until a human reconciles "
        'it. Declare "effects": "none" or "idempotent" to retry such attempts '
        'automatically, or "external" to keep this (docs/definitions.md).'
    )
    return (
        DefinitionWarning(
            "EFFECTS_UNDECLARED", tuple(silent[:MAX_WARNED_NODES]), len(silent), message
        ),
    )


def node_id_problem(node_id: str) -> str | None:
    """Why ``node_id`` cannot name a node (ids exclude ``#``, ``.`` and ``/``)."""
    if any(char in node_id for char in "#./"):
        return "a node id must not contain '#', '.' or '/'"
    return values.identifier_problem(node_id)


class _Problems:
    """Collects violations while the whole document is checked."""

    def __init__(self, root: str) -> None:
        self.root = root
        self.items: list[FieldViolation] = []
        self.unknown_models: list[FieldViolation] = []

    def add(self, path: str, message: str) -> None:
        self.items.append(FieldViolation(f"{self.root}{path}", message))


def parse(
    document: values.JsonValue,
    models: frozenset[str] | None,
    limits: Limits = DEFAULT_LIMITS,
    field_path: str = "definition_json",
) -> Definition | Rejection:
    """Validates a parsed definition document.

    Args:
        document: The parsed document (see :func:`values.parse_versioned_document`).
        models: The models the engine knows; ``None`` skips the model check.
        limits: The caps to enforce.
        field_path: The request field, prefixed to every violation.

    Returns:
        The definition, or one rejection listing every problem.
    """
    problems = _Problems(field_path)
    if not isinstance(document, dict):
        problems.add("", "a definition must be a JSON object")
        return _rejection(problems, models)
    if document.get("version") != 1 or isinstance(document.get("version"), bool):
        problems.add(".version", "version must be 1")
    for key in document:
        if key not in _TOP_KEYS:
            problems.add(f".{key}", f"unknown key {key!r}")
    if not isinstance(document.get("$schema", ""), str):  # for editors; ignored here
        problems.add(".$schema", "$schema must be a string (the schema's address)")
    raw_nodes = document.get("nodes")
    if not isinstance(raw_nodes, dict) or not raw_nodes:
        problems.add(".nodes", "nodes must be a non-empty object keyed by node id")
        raw_nodes = {}
    if len(raw_nodes) > limits.max_nodes:
        problems.add(".nodes", f"{len(raw_nodes)} nodes exceed the cap of {limits.max_nodes}")
    default_functions = document.get("default_functions")
    _check_functions(default_functions, ".default_functions", problems)
    nodes: dict[str, Node] = {}
    for node_id, raw in raw_nodes.items():
        node = _parse_node(node_id, raw, default_functions, models, problems)
        if node is not None:
            nodes[node_id] = node
    output = _parse_output(document.get("output"), raw_nodes, problems)
    _check_graph(nodes, raw_nodes, problems)
    if problems.items or problems.unknown_models or output is None:
        return _rejection(problems, models)
    return _build(nodes, output, document)


MAX_LISTED_MODELS = 50


def known_models_text(models: frozenset[str] | None, separator: str = ", ") -> str:
    """The known models, sorted, at most :data:`MAX_LISTED_MODELS` of them.

    Workers teach the engine models for good, so the list is capped to keep errors small
    (gRPC trailers are limited to a few KiB).
    """
    names = sorted(models or ())
    if not names:
        return "(none)"
    text = separator.join(names[:MAX_LISTED_MODELS])
    extra = len(names) - MAX_LISTED_MODELS
    return text + (f"{separator}... ({extra} more)" if extra > 0 else "")


def _rejection(problems: _Problems, models: frozenset[str] | None) -> Rejection:
    known = known_models_text(models)
    if problems.unknown_models and not problems.items:
        return Rejection(
            Code.INVALID_ARGUMENT,
            "MODEL_UNKNOWN",
            f"the definition names models the engine does not know; known models: {known}",
            tuple(problems.unknown_models),
            (
                ("known_models", known_models_text(models, ",")),
                ("known_models_count", str(len(models or ()))),
            ),
        )
    violations = tuple(problems.items + problems.unknown_models)
    return Rejection(
        Code.INVALID_ARGUMENT,
        "DEFINITION_INVALID",
        f"the definition breaks {len(violations)} rule(s): "
        + "; ".join(f"{v.field}: {v.description}" for v in violations[:5]),
        violations,
    )


def _parse_output(raw: values.JsonValue, raw_nodes: dict[str, object], p: _Problems) -> str | None:
    if not isinstance(raw, dict) or set(raw) != {"from"} or not isinstance(raw["from"], str):
        p.add(".output", 'output must be {"from": "node:<id>"}')
        return None
    ref = raw["from"]
    if not ref.startswith("node:") or ref[5:] not in raw_nodes:
        p.add(".output.from", f"{ref!r} does not name a node of this definition")
        return None
    return ref[5:]


def _parse_node(
    node_id: str,
    raw: values.JsonValue,
    default_functions: values.JsonValue,
    models: frozenset[str] | None,
    p: _Problems,
) -> Node | None:
    path = f".nodes.{node_id}"
    before = len(p.items)
    problem = node_id_problem(node_id)
    if problem:
        p.add(path, problem)
    if not isinstance(raw, dict):
        p.add(path, "a node must be an object")
        return None
    for key in raw:
        if key not in _NODE_KEYS:
            p.add(f"{path}.{key}", f"unknown key {key!r}")
    kind = raw.get("kind", "agent")
    if kind not in ("agent", *WAIT_KINDS):
        p.add(f"{path}.kind", f"kind must be one of agent, {', '.join(WAIT_KINDS)}")
        return None
    if kind != "agent":
        return _parse_wait_node(node_id, kind, raw, p, before)
    if "wait" in raw:
        p.add(f"{path}.wait", "only wait nodes take a wait block")
    max_cost = _parse_cost(raw.get("max_cost_microcredits"), f"{path}.max_cost_microcredits", p)
    agent = _parse_agent(raw.get("agent"), f"{path}.agent", default_functions, models, p)
    source, template = _parse_input(raw.get("input"), f"{path}.input", p)
    depends_on = _parse_depends(raw.get("depends_on", []), f"{path}.depends_on", p)
    fanout = _parse_fanout(raw.get("fanout"), f"{path}.fanout", p)
    timeout_ms = _parse_int(raw.get("timeout_ms", 0), f"{path}.timeout_ms", 0, MAX_TIMEOUT_MS, p)
    schedule_to_start_ms = _parse_int(
        raw.get("schedule_to_start_ms", DEFAULT_SCHEDULE_TO_START_MS),
        f"{path}.schedule_to_start_ms",
        0,
        MAX_TIMEOUT_MS,
        p,
    )
    retry = _parse_retry(raw.get("retry", {}), f"{path}.retry", p)
    effects = raw.get("effects", "")
    if "effects" in raw and effects not in EFFECTS:
        p.add(f"{path}.effects", f"effects must be one of {', '.join(EFFECTS)}")
    if agent is None or source is None or len(p.items) > before:
        return None
    spec = {
        "agent": {
            "model": agent.model,
            "system_prompt": agent.system_prompt,
            "provider": agent.provider,
            "functions": agent.functions,
            "output": {"type": agent.output.kind, "schema": agent.output.schema},
        },
        "source": {"kind": source.kind, "nodes": list(source.nodes)},
        "template": template,
        "depends_on": sorted(depends_on),
        "fanout": None if fanout is None else {"node": fanout.node, "path": list(fanout.path)},
        "timeout_ms": timeout_ms,
        "retry": [retry.attempts, retry.backoff_ms, retry.max_backoff_ms],
    }
    if max_cost:
        spec["max_cost"] = max_cost
    if effects:
        spec["effects"] = effects  # changing the declaration changes the node: a revision
    if "schedule_to_start_ms" in raw:
        spec["schedule_to_start_ms"] = schedule_to_start_ms
    return Node(
        node_id,
        agent,
        source,
        template,
        depends_on,
        fanout,
        timeout_ms,
        retry,
        values.digest(spec),
        max_cost=max_cost,
        effects=str(effects),
        schedule_to_start_ms=schedule_to_start_ms,
    )


def _parse_cost(raw: values.JsonValue, path: str, p: _Problems) -> str:
    if raw is None:
        return ""
    if not isinstance(raw, str):
        p.add(path, "max_cost_microcredits must be a canonical decimal string")
        return ""
    parsed = money.parse_amount(raw, path)
    if isinstance(parsed, Rejection):
        p.add(path, parsed.message)
        return ""
    return raw


def _parse_wait_node(
    node_id: str, kind: str, raw: dict[str, values.JsonValue], p: _Problems, before: int
) -> Node | None:
    """A wait node: no agent, an optional input, a wait block, no fan-out."""
    path = f".nodes.{node_id}"
    for key in (
        "agent",
        "fanout",
        "timeout_ms",
        "schedule_to_start_ms",
        "retry",
        "max_cost_microcredits",
        "effects",
    ):
        if key in raw:
            p.add(f"{path}.{key}", f"a {kind} node takes no {key}")
    source, template = Source("none"), ""
    if "input" in raw:
        parsed, template = _parse_input(raw["input"], f"{path}.input", p)
        source = parsed or source
    depends_on = _parse_depends(raw.get("depends_on", []), f"{path}.depends_on", p)
    wait = _parse_wait(raw.get("wait"), f"{path}.wait", p)
    if wait is not None and wait.purpose and kind != "authorization":
        p.add(f"{path}.wait.purpose", "only an authorization wait declares a purpose")
    if wait is not None and (wait.question or wait.choices) and kind != "human_input":
        key = "question" if wait.question else "choices"
        p.add(f"{path}.wait.{key}", "only a human_input wait asks a question")
    if wait is None or len(p.items) > before:
        return None
    agent = Agent(model="", output=OutputContract("json", wait.schema))
    # The purpose joins the digest only when declared: the digests of the waits written
    # before purposes existed stay what they were.
    purpose = [wait.purpose] if wait.purpose else []
    asked = [{"question": wait.question, "choices": list(wait.choices)}] if _asks(wait) else []
    spec = {
        "kind": kind,
        "source": {"kind": source.kind, "nodes": list(source.nodes)},
        "template": template,
        "depends_on": sorted(depends_on),
        "wait": [wait.expires_in_ms, wait.schema, wait.on_expiry, wait.default, *purpose, *asked],
    }
    return Node(
        node_id,
        agent,
        source,
        template,
        depends_on,
        None,
        0,
        RetryPolicy(attempts=1),
        values.digest(spec),
        kind=kind,
        wait=wait,
        schedule_to_start_ms=0,
    )


def _parse_wait(raw: values.JsonValue, path: str, p: _Problems) -> WaitSpec | None:
    if not isinstance(raw, dict):
        p.add(path, "a wait node needs a wait block")
        return None
    for key in raw:
        if key not in _WAIT_KEYS:
            p.add(f"{path}.{key}", f"unknown key {key!r}")
    expires = _parse_int(raw.get("expires_in_ms"), f"{path}.expires_in_ms", 1, MAX_WAIT_MS, p)
    schema = raw.get("schema", {})
    for where, problem in jsonschema.schema_problems(schema, f"{path}.schema"):
        p.add(where, problem)
    on_expiry = raw.get("on_expiry")
    if on_expiry not in ("fail", "default"):
        p.add(f"{path}.on_expiry", 'on_expiry must be "fail" or "default"')
        return None
    if on_expiry == "fail" and "default" in raw:
        p.add(f"{path}.default", 'a default needs "on_expiry": "default"')
    if on_expiry == "default":
        if "default" not in raw:
            p.add(f"{path}.default", 'on_expiry "default" needs a default')
        elif not jsonschema.schema_problems(schema, "") and jsonschema.validate(
            raw["default"], schema
        ):
            p.add(f"{path}.default", "the default does not match the wait's schema")
    purpose = raw.get("purpose", "")
    wrong = purposes.purpose_problem(purpose) if "purpose" in raw else None
    if wrong or not isinstance(purpose, str):
        p.add(f"{path}.purpose", wrong or "purpose must be a string")
        purpose = ""
    question = _parse_question(raw.get("question", ""), f"{path}.question", p)
    choices = _parse_choices(raw.get("choices", []), f"{path}.choices", p)
    if choices and "schema" not in raw:
        schema = {"type": "string", "enum": list(choices)}
    elif choices and not jsonschema.schema_problems(schema, ""):
        for index, choice in enumerate(choices):
            if jsonschema.validate(choice, schema):
                p.add(f"{path}.choices[{index}]", "the choice does not match the wait's schema")
    return WaitSpec(expires, schema, str(on_expiry), raw.get("default"), purpose, question, choices)


def _asks(wait: WaitSpec) -> bool:
    # The question joins a wait's digest only when asked, like the purpose: the digests
    # of the waits written before questions existed stay what they were.
    return bool(wait.question or wait.choices)


def _parse_question(raw: values.JsonValue, path: str, p: _Problems) -> str:
    if not isinstance(raw, str):
        p.add(path, "question must be a string")
        return ""
    if len(raw) > MAX_QUESTION_CHARS:
        p.add(path, f"a question has at most {MAX_QUESTION_CHARS} characters")
        return ""
    return raw


def _parse_choices(raw: values.JsonValue, path: str, p: _Problems) -> tuple[str, ...]:
    if not isinstance(raw, list) or len(raw) > MAX_CHOICES:
        p.add(path, f"choices must be a list of at most {MAX_CHOICES} strings")
        return ()
    problems = len(p.items)
    for index, choice in enumerate(raw):
        if not isinstance(choice, str) or not choice.strip() or len(choice) > MAX_CHOICE_CHARS:
            p.add(f"{path}[{index}]", f"a choice is a string of 1 to {MAX_CHOICE_CHARS} characters")
    if len(set(map(str, raw))) != len(raw):
        p.add(path, "choices must be distinct")
    if len(p.items) > problems:
        return ()
    return tuple(str(choice) for choice in raw)


def _parse_agent(
    raw: values.JsonValue,
    path: str,
    default_functions: values.JsonValue,
    models: frozenset[str] | None,
    p: _Problems,
) -> Agent | None:
    if not isinstance(raw, dict):
        p.add(path, "agent must be an object with a model")
        return None
    for key in raw:
        if key not in _AGENT_KEYS:
            p.add(f"{path}.{key}", f"unknown key {key!r}")
    model = raw.get("model")
    if not isinstance(model, str) or values.identifier_problem(model):
        p.add(f"{path}.model", "model must be a model id")
        return None
    if models is not None and model not in models:
        known = known_models_text(models)
        p.unknown_models.append(
            FieldViolation(
                f"{p.root}{path}.model", f"model {model!r} is unknown; known models: {known}"
            )
        )
    texts = {}
    for key in ("system_prompt", "provider"):
        text = raw.get(key)
        if text is not None and not isinstance(text, str):
            p.add(f"{path}.{key}", f"{key} must be a string")
        texts[key] = text if isinstance(text, str) else ""
    if len(texts["provider"]) > MAX_PROVIDER_CHARS:
        p.add(f"{path}.provider", f"provider is at most {MAX_PROVIDER_CHARS} characters")
    policy = raw.get("functions", default_functions)
    _check_functions(raw.get("functions"), f"{path}.functions", p)
    output = _parse_contract(raw.get("output"), f"{path}.output", p)
    return Agent(model, texts["system_prompt"], texts["provider"], policy, output)


def _check_functions(raw: values.JsonValue, path: str, p: _Problems) -> None:
    for problem in functions.problems(raw):
        p.add(path, problem)


def _parse_contract(raw: values.JsonValue, path: str, p: _Problems) -> OutputContract:
    if raw is None:
        return OutputContract()
    if not isinstance(raw, dict) or raw.get("type") not in ("json", "text"):
        p.add(path, 'output must be {"type": "text"} or {"type": "json", "schema": {...}}')
        return OutputContract()
    if raw["type"] == "text":
        if set(raw) != {"type"}:
            p.add(path, "a text output takes no other keys")
        return OutputContract()
    if set(raw) != {"type", "schema"}:
        p.add(path, 'a json output is {"type": "json", "schema": {...}}')
        return OutputContract("json", None)
    for where, problem in jsonschema.schema_problems(raw["schema"], f"{path}.schema"):
        p.add(where, problem)
    return OutputContract("json", raw["schema"])


def _parse_input(raw: values.JsonValue, path: str, p: _Problems) -> tuple[Source | None, str]:
    if not isinstance(raw, dict) or "from" not in raw:
        p.add(path, 'input must be an object with "from"')
        return None, ""
    for key in raw:
        if key not in _INPUT_KEYS:
            p.add(f"{path}.{key}", f"unknown key {key!r}")
    template = raw.get("template")
    if template is not None and not isinstance(template, str):
        p.add(f"{path}.template", "template must be a string")
    text = template if isinstance(template, str) else ""
    source = raw["from"]
    if source in ("run_input", "fanout_item"):
        return Source(str(source)), text
    if isinstance(source, str) and source.startswith("node:") and len(source) > 5:
        return Source("node", (source[5:],)), text
    if (
        isinstance(source, list)
        and source
        and all(isinstance(s, str) and s.startswith("node:") and len(s) > 5 for s in source)
    ):
        ids = tuple(s[5:] for s in source)
        if len(set(ids)) != len(ids):
            p.add(f"{path}.from", "a join names each node once")
        return Source("join", ids), text
    p.add(
        f"{path}.from",
        'from must be "run_input", "fanout_item", "node:<id>" or a list of "node:<id>"',
    )
    return None, text


def _parse_depends(raw: values.JsonValue, path: str, p: _Problems) -> tuple[str, ...]:
    if not isinstance(raw, list) or not all(isinstance(item, str) for item in raw):
        p.add(path, "depends_on must be a list of node ids")
        return ()
    if len(set(raw)) != len(raw):
        p.add(path, "depends_on names a node twice")
    return tuple(dict.fromkeys(raw))


def _parse_fanout(raw: values.JsonValue, path: str, p: _Problems) -> Fanout | None:
    if raw is None:
        return None
    over = raw.get("over") if isinstance(raw, dict) else None
    if not isinstance(raw, dict) or set(raw) != {"over"} or not isinstance(over, str):
        p.add(path, 'fanout must be {"over": "node:<dep>.<path>"}')
        return None
    if not over.startswith("node:") or len(over) <= 5:
        p.add(f"{path}.over", 'over must be "node:<dep>" or "node:<dep>.<path>"')
        return None
    node, *keys = over[5:].split(".")
    if any(not key for key in keys):
        p.add(f"{path}.over", "the path has an empty segment")
        return None
    return Fanout(node, tuple(keys))


def _parse_int(raw: values.JsonValue, path: str, low: int, high: int, p: _Problems) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
        p.add(path, f"must be an integer in [{low}, {high}]")
        return low
    return raw


def _parse_retry(raw: values.JsonValue, path: str, p: _Problems) -> RetryPolicy:
    if not isinstance(raw, dict):
        p.add(path, "retry must be an object")
        return RetryPolicy()
    for key in raw:
        if key not in _RETRY_KEYS:
            p.add(f"{path}.{key}", f"unknown key {key!r}")
    default = RetryPolicy()
    attempts = _parse_int(
        raw.get("attempts", default.attempts), f"{path}.attempts", 1, MAX_ATTEMPTS, p
    )
    backoff = _parse_int(
        raw.get("backoff_ms", default.backoff_ms), f"{path}.backoff_ms", 0, MAX_BACKOFF_MS, p
    )
    cap = _parse_int(
        raw.get("max_backoff_ms", max(default.max_backoff_ms, backoff)),
        f"{path}.max_backoff_ms",
        backoff,
        MAX_BACKOFF_MS,
        p,
    )
    return RetryPolicy(attempts, backoff, cap)


# --- graph rules ----------------------------------------------------------------------


@dataclass(frozen=True)
class ServerRule:
    """A rule :func:`parse` (or the document parser before it) checks that the JSON Schema
    of the format (``docs/definition.schema.json``) cannot state.

    Attributes:
        name: A short name, the rule's heading in ``docs/definitions.md``.
        text: The rule, for the reader.
        field: A regular expression the violation's field path matches, after the
            request field (``.nodes.a.depends_on``).
        problem: A regular expression the violation's description matches.
    """

    name: str
    text: str
    field: str
    problem: str


SERVER_RULES = (
    ServerRule(
        "bounded document",
        "The text is one JSON object of the bounded profile: at most 1 MiB of UTF-8 (the "
        "server's document cap), nested at most 64 deep, integers only (no fraction or "
        "exponent) within +/-(2^53 - 1), no duplicate keys (DOCUMENT_* reasons).",
        r"^$",
        r"^DOCUMENT_",
    ),
    ServerRule(
        "dependencies exist",
        "Every `depends_on` entry names another node of the definition.",
        r"^\.nodes\.[^.]+\.depends_on$",
        r"which is not a node$|cannot depend on itself$",
    ),
    ServerRule(
        "no cycle",
        "The `depends_on` graph has no cycle (the violation names one).",
        r"^\.nodes$",
        r"has a cycle",
    ),
    ServerRule(
        "inputs are dependencies",
        "Each `node:<id>` of `input.from` names a node of the definition that the node "
        "lists in `depends_on`.",
        r"^\.nodes\.[^.]+\.input\.from$",
        r"which is not a node$|but does not depend on it$",
    ),
    ServerRule(
        "fan-out items need a fan-out",
        "`input.from: fanout_item` is only for a node with a `fanout`.",
        r"^\.nodes\.[^.]+\.input\.from$",
        r"^fanout_item needs a fanout",
    ),
    ServerRule(
        "dependencies are consumed",
        "Every dependency is read by `input.from` or `fanout.over`; only a wait node with "
        "no `input` may list dependencies just to be ordered after them.",
        r"^\.nodes\.[^.]+\.depends_on$",
        r"is not consumed by the input or the fan-out$",
    ),
    ServerRule(
        "fan-out sources",
        "`fanout.over` names a node of the definition that the node depends on; that node is "
        "not a fan-out itself; where its output schema declares the type at the path, the "
        "type is an array.",
        r"^\.nodes\.[^.]+\.fanout\.over$",
        r"which is not a node$|but does not depend on it$|fan-out over a fan-out|not an array$",
    ),
    ServerRule(
        "read results are typed JSON",
        "A node that another node reads (by `input.from` or `fanout.over`) declares "
        '`"output": {"type": "json", "schema": {...}}` with a `type` (a wait node: a '
        "`wait.schema` with a `type`).",
        r"^\.nodes\.[^.]+\.agent\.output$",
        r"must declare",
    ),
    ServerRule(
        "the output is a node",
        "`output.from` names a node of this definition.",
        r"^\.output\.from$",
        r"does not name a node of this definition$",
    ),
    ServerRule(
        "backoff order",
        "`retry.max_backoff_ms` is at least `retry.backoff_ms`.",
        r"^\.nodes\.[^.]+\.retry\.max_backoff_ms$",
        r"^must be an integer in \[",
    ),
    ServerRule(
        "wait defaults match",
        "A wait's `default` matches its `schema`.",
        r"^\.nodes\.[^.]+\.wait\.default$",
        r"does not match the wait's schema$",
    ),
    ServerRule(
        "choices match",
        "Each of a `human_input` wait's `choices` matches its `schema`.",
        r"^\.nodes\.[^.]+\.wait\.choices\[\d+\]$",
        r"the choice does not match the wait's schema$",
    ),
    ServerRule(
        "known models",
        "Each `agent.model` is a model the engine knows: listed in the server's config "
        "(`models`) or claimed by a worker in the last 10 minutes. Only this problem: "
        "MODEL_UNKNOWN, listing the known models; with others: one more violation of "
        "DEFINITION_INVALID. (A definition is checked for this when a run starts or a "
        "ref is registered or proposed.)",
        r"^\.nodes\.[^.]+\.agent\.model$",
        r"is unknown; known models",
    ),
    ServerRule(
        "node cap",
        "At most the server's `max_nodes` nodes (10,000 unless its operator sets another "
        "cap); the schema states the default.",
        r"^\.nodes$",
        r"nodes exceed the cap of",
    ),
)
"""Every rule beyond the JSON Schema, in the order docs/definitions.md lists them."""


def _check_graph(nodes: dict[str, Node], raw_nodes: dict[str, object], p: _Problems) -> None:
    for node in nodes.values():
        path = f".nodes.{node.node_id}"
        for dep in node.depends_on:
            if dep not in raw_nodes:
                p.add(f"{path}.depends_on", f"depends on {dep!r}, which is not a node")
            elif dep == node.node_id:
                p.add(f"{path}.depends_on", "a node cannot depend on itself")
        read = set(node.source.nodes)
        for ref in node.source.nodes:
            if ref not in raw_nodes:
                p.add(f"{path}.input.from", f"reads {ref!r}, which is not a node")
            elif ref not in node.depends_on:
                p.add(f"{path}.input.from", f"reads {ref!r} but does not depend on it")
        if node.fanout is not None:
            read.add(node.fanout.node)
            _check_fanout(node, nodes, raw_nodes, p)
        elif node.source.kind == "fanout_item":
            p.add(f"{path}.input.from", "fanout_item needs a fanout on the node")
        for dep in node.depends_on:
            if dep not in read and dep in raw_nodes and node.source.kind != "none":
                p.add(
                    f"{path}.depends_on",
                    f"dependency {dep!r} is not consumed by the input or the fan-out",
                )
        for ref in read:
            _check_readable(ref, node.node_id, nodes, p)
    cycle = _find_cycle(nodes)
    if cycle:
        p.add(".nodes", "the depends_on graph has a cycle: " + " -> ".join(cycle))


def _check_fanout(
    node: Node, nodes: dict[str, Node], raw_nodes: dict[str, object], p: _Problems
) -> None:
    assert node.fanout is not None
    path = f".nodes.{node.node_id}.fanout.over"
    source = nodes.get(node.fanout.node)
    if node.fanout.node not in raw_nodes:
        p.add(path, f"fans out over {node.fanout.node!r}, which is not a node")
        return
    if node.fanout.node not in node.depends_on:
        p.add(path, f"fans out over {node.fanout.node!r} but does not depend on it")
    if source is None:
        return
    if source.fanout is not None:
        p.add(path, "a fan-out over a fan-out group is not supported; fan out over a plain node")
        return
    types = jsonschema.types_at(source.agent.output.schema, node.fanout.path)
    if types is not None and "array" not in types:
        p.add(
            path,
            f"node {source.node_id!r}'s schema declares {node.fanout.path_text or 'its result'}"
            f" as {' or '.join(sorted(types))}, not an array",
        )


def _check_readable(ref: str, reader: str, nodes: dict[str, Node], p: _Problems) -> None:
    source = nodes.get(ref)
    if source is None:
        return
    output = source.agent.output
    if output.kind != "json" or not jsonschema.declared_types(output.schema):
        p.add(
            f".nodes.{ref}.agent.output",
            f"node {reader!r} reads {ref!r}, so {ref!r} must declare "
            '{"type": "json", "schema": {...}} with a type',
        )


def _find_cycle(nodes: dict[str, Node]) -> list[str]:
    """One cycle of the depends_on graph (as a path), or an empty list."""
    color: dict[str, int] = {}
    for start in nodes:
        if color.get(start):
            continue
        stack: list[tuple[str, int]] = [(start, 0)]
        trail: list[str] = []
        while stack:
            node_id, index = stack.pop()
            if index == 0:
                color[node_id] = 1
                trail.append(node_id)
            deps = [d for d in nodes[node_id].depends_on if d in nodes]
            if index < len(deps):
                stack.append((node_id, index + 1))
                dep = deps[index]
                if color.get(dep) == 1:
                    return [*trail[trail.index(dep) :], dep]
                if not color.get(dep):
                    stack.append((dep, 0))
            else:
                color[node_id] = 2
                trail.pop()
    return []


def _build(nodes: dict[str, Node], output: str, document: values.JsonValue) -> Definition:
    dependents: dict[str, list[str]] = {node_id: [] for node_id in nodes}
    consumers: dict[str, list[str]] = {node_id: [] for node_id in nodes}
    for node in nodes.values():
        for dep in node.depends_on:
            dependents[dep].append(node.node_id)
        if node.fanout is not None:
            consumers[node.fanout.node].append(node.node_id)
    required: set[str] = set()
    pending = [output]
    while pending:
        node_id = pending.pop()
        if node_id not in required:
            required.add(node_id)
            pending.extend(nodes[node_id].depends_on)
    return Definition(
        nodes=nodes,
        output=output,
        required=frozenset(required),
        dependents={k: tuple(v) for k, v in dependents.items()},
        fanout_consumers={k: tuple(v) for k, v in consumers.items()},
        digest=values.digest(document),
        document=document,
    )
