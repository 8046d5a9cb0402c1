"""The execution model's vectors: contracts, reconciliation, waits, assessments, handoffs.

Imported by ``build_vectors.py``, built on the runtime's helpers (``runtime_vectors``):
every vector claims work only for its own models, captures run, attempt, operation,
wait, delivery and subject ids, and never predicts them. Values the contract pins and
the vector can compute on its own are asserted exactly: evidence, result and output
digests (``sha256`` over canonical JSON), canonical schema and criteria texts, exact
decimal sums.

Principals (besides those of ``tests/support/harness.py``): ``agent`` carries the execution
model's agent grants (``contract.read``, ``reconcile.read``, ``wait.read``,
``wait.satisfy``, ``assess.read``, ``assess.verify``, ``handoff.*``), ``agent2`` is a
second agent with the same grants, ``capped`` an agent whose grant caps its spending
at 100 microcredits, ``payer`` a human whose grants beyond reads are only for the purpose
``payments`` and ``lapsed`` a human whose grant beyond reads ended at 1800000000000
(``tests/support/execution.py``, ``model_principals``).

Installation-wide state: a principal's spend (GetSpending) is shared by every vector and
language that runs against one server. Only ``spending/*`` spends as ``agent2``, always a
whole number per vector, so the vector reads the spend first (``${s0}``) and expects
``${s0}.3`` and ``${s0+1}``; ``capped`` never spends, so its cap is never used up by an
earlier language.

Expiry under the test clock: a wait's expiry is applied by the server's sweeper in the
background. SatisfyWait at or after the expiry is WAIT_EXPIRED and ListWaits reports
EXPIRED whether or not the sweep has run; a default taken on expiry is observed through
a ClaimTasks that long-polls until the node reading the wait is ready; a wait that fails
on expiry is observed next to a timer of the same run that expires with it (one sweep
applies every expiry of a run that is due), so no vector depends on the sweeper's timing.
"""

from __future__ import annotations

from typing import Any

from runtime_vectors import (
    AGENT,
    FAILED,
    INVALID,
    LEASE,
    claim,
    complete,
    definition,
    fail,
    get_run,
    json_out,
    model,
    node,
    snapshot,
    start,
    task,
    teach,
)
from vectorlib import (
    EPOCHS,
    REF,
    activate_cmd,
    approve,
    canonical,
    digest_of,
    execute,
    propose_cmd,
    registered,
    review,
    step,
    vector,
)

Json = Any

DENIED = "PERMISSION_DENIED"
EXISTS = "ALREADY_EXISTS"
NOT_FOUND = "NOT_FOUND"
RUNS = ["aiws.engine.v1.RunService", "aiws.engine.v1.TaskService"]
CONTRACTS = ["aiws.engine.v1.ContractService", *RUNS]
RECONCILE = ["aiws.engine.v1.ReconciliationService", "aiws.engine.v1.ApprovalService", *RUNS]
WAITS = ["aiws.engine.v1.WaitService", *RUNS]
ASSESS = ["aiws.engine.v1.AssessmentService", *RUNS]
HANDOFFS = ["aiws.engine.v1.HandoffService", *RUNS]

ZERO_DIGEST = "sha256:" + "0" * 64
OTHER_DIGEST = "sha256:" + "1" * 64


# --- contracts ------------------------------------------------------------------------

CID = "${ns}-c"
CWO = "${ns}-wo"
CRITERIA = {"must": ["be correct"]}
CRITERIA_TEXT = canonical(CRITERIA)
DEADLINE = "${t0+3600000}"
SINGLE = definition("a", a=node(output=json_out({"type": "object"})))
CHAIN = definition(
    "b",
    a=node(output=json_out({"type": "object"})),
    b=node("node:a", ("a",), json_out({"type": "object"}), max_cost_microcredits="50"),
)
PLAIN_CHAIN = definition("b", a=node(output=json_out({"type": "object"})), b=node("node:a", ("a",)))


def contract_request(
    budget: str = "100",
    *,
    cid: str = CID,
    deadline: str = DEADLINE,
    criteria: str = CRITERIA_TEXT,
    work_order: str = CWO,
    profile: str = "aiws.v1",
) -> dict[str, Json]:
    """A CreateContractRequest."""
    request = {
        "contractId": cid,
        "workOrderId": work_order,
        "criteriaJson": criteria,
        "deadlineMs": deadline,
        "budgetMicrocredits": budget,
    }
    if profile:
        request["profile"] = profile
    return request


def contract(
    budget: str = "100",
    spent: str = "0",
    remaining: str | None = None,
    *,
    deadline: str = DEADLINE,
    digest: str = "<any>",
) -> dict[str, Json]:
    """The expected Contract."""
    return {
        "contractId": CID,
        "workOrderId": CWO,
        "criteriaJson": CRITERIA_TEXT,
        "deadlineMs": deadline,
        "budgetMicrocredits": budget,
        "profile": "aiws.v1",
        "digest": digest,
        "createdBy": "alice",
        "createdAtMs": "${t0}",
        "spentMicrocredits": spent,
        "remainingMicrocredits": budget if remaining is None else remaining,
        "reservedMicrocredits": "0",
    }


def create_contract(
    budget: str = "100",
    *,
    principal: str = "alice",
    response: Json = None,
    error: tuple[str, str] | None = None,
    captures: dict[str, str] | None = None,
    **fields: Json,
) -> dict[str, Json]:
    """CreateContract; by default expects a new contract with that budget."""
    request = contract_request(budget, **fields)
    if error:
        return step(principal, "ContractService", "CreateContract", request, error=error)
    if response is None:
        deadline = fields.get("deadline", DEADLINE)
        response = {"contract": contract(budget, deadline=deadline), "replayed": None}
    return step(
        principal,
        "ContractService",
        "CreateContract",
        request,
        response=response,
        captures=captures,
    )


def get_contract(
    expected: Json = None,
    *,
    cid: str = CID,
    principal: str = "alice",
    error: tuple[str, str] | None = None,
) -> dict[str, Json]:
    """GetContract."""
    if error:
        return step(principal, "ContractService", "GetContract", {"contractId": cid}, error=error)
    return step(
        principal,
        "ContractService",
        "GetContract",
        {"contractId": cid},
        response={"contract": expected},
    )


def spent(value: str, remaining: str, reserved: str | None = None) -> dict[str, Json]:
    """The spend part of an expected Contract (and what running attempts reserve)."""
    found = {"spentMicrocredits": value, "remainingMicrocredits": remaining}
    if reserved is not None:
        found["reservedMicrocredits"] = reserved
    return found


def spending(
    principal: str,
    *,
    of: str = "",
    response: Json = None,
    error: tuple[str, str] | None = None,
    captures: dict[str, str] | None = None,
) -> dict[str, Json]:
    """GetSpending (of the caller, or of ``of``)."""
    request = {"principalId": of} if of else {}
    if error:
        return step(principal, "ContractService", "GetSpending", request, error=error)
    return step(
        principal, "ContractService", "GetSpending", request, response=response, captures=captures
    )


def claim_as(att: str, *, op: str | None = None, **kwargs: Any) -> dict[str, Json]:
    """Claims one task of the vector's model; captures its attempt (and operation) id."""
    captures = {att: "tasks.0.attemptId"}
    if op:
        captures[op] = "tasks.0.operationId"
    pattern = kwargs.pop("task", None) or {"attemptId": "<any>", "runId": "${run}"}
    return claim([pattern], captures=captures, **kwargs)


def nothing_to_claim() -> dict[str, Json]:
    """A ClaimTasks that does not wait and finds nothing."""
    return claim(None)


def failed_run(reason: str) -> dict[str, Json]:
    """GetRun of a run that failed with ``reason``."""
    return get_run(snapshot("FAILED", resultReason=reason, resultError="<any>"))


def contracts_vectors() -> list[dict[str, Json]]:
    def not_canonical(name: str, budget: str, reason: str = "DECIMAL_NOT_CANONICAL"):
        return vector(
            f"contract/budget-{name}-is-refused",
            f"A budget of {budget!r} fails with {reason}; nothing is recorded.",
            [
                create_contract(budget, error=(INVALID, reason)),
                get_contract(error=(NOT_FOUND, "CONTRACT_NOT_FOUND")),
            ],
            CONTRACTS,
        )

    def refused(name: str, what: str, reason: str, **fields: Json):
        return vector(
            f"contract/{name}",
            f"{what} fails with {reason}; nothing is recorded.",
            [
                create_contract(error=(INVALID, reason), **fields),
                get_contract(error=(NOT_FOUND, "CONTRACT_NOT_FOUND")),
            ],
            CONTRACTS,
        )

    return [
        vector(
            "contract/create-records-the-terms-with-nothing-spent",
            "CreateContract records criteria (canonical JSON), deadline, budget and profile; "
            "nothing is spent and the whole budget remains. GetContract reads it back, same "
            "digest.",
            [
                create_contract(captures={"cd": "contract.digest"}),
                get_contract(contract(digest="${cd}")),
            ],
            CONTRACTS,
        ),
        vector(
            "contract/same-id-same-content-replays",
            "Creating the same contract again returns it with replayed = true and the same digest.",
            [
                create_contract(captures={"cd": "contract.digest"}),
                create_contract(response={"contract": contract(digest="${cd}"), "replayed": True}),
            ],
            CONTRACTS,
        ),
        vector(
            "contract/same-id-different-content-is-refused",
            "A contract never changes: the same id with another budget fails with "
            "CONTRACT_ALREADY_EXISTS and the first terms stay.",
            [
                create_contract("100"),
                create_contract("200", error=(EXISTS, "CONTRACT_ALREADY_EXISTS")),
                get_contract(contract("100")),
            ],
            CONTRACTS,
        ),
        vector(
            "contract/same-id-other-criteria-is-refused",
            "The same id with other criteria fails with CONTRACT_ALREADY_EXISTS.",
            [
                create_contract(),
                create_contract(
                    criteria=canonical({"must": ["be fast"]}),
                    error=(EXISTS, "CONTRACT_ALREADY_EXISTS"),
                ),
            ],
            CONTRACTS,
        ),
        not_canonical("with-trailing-fractional-zero", "1.50"),
        not_canonical("negative-zero", "-0"),
        not_canonical("with-exponent", "1e3"),
        not_canonical("with-plus-sign", "+1"),
        not_canonical("with-leading-zero", "01"),
        not_canonical("negative", "-1", "COST_INVALID"),
        not_canonical("above-10-18", "1" + "0" * 19, "COST_INVALID"),
        vector(
            "contract/budget-of-10-18-and-fractions-are-kept-exactly",
            "A budget of exactly 10^18 is accepted and a fractional budget stays as sent.",
            [
                create_contract("1000000000000000000"),
                create_contract(
                    "12.000001",
                    cid="${ns}-c2",
                    response={
                        "contract": {
                            "contractId": "${ns}-c2",
                            "budgetMicrocredits": "12.000001",
                            "remainingMicrocredits": "12.000001",
                        }
                    },
                ),
            ],
            CONTRACTS,
        ),
        refused(
            "deadline-not-in-the-future-is-refused",
            "A deadline equal to now",
            "TIME_INVALID",
            deadline="${t0}",
        ),
        refused(
            "criteria-must-be-an-object",
            "Criteria that are a JSON array",
            "DOCUMENT_MALFORMED",
            criteria="[1]",
        ),
        refused(
            "criteria-follow-the-document-profile",
            "Criteria with a fractional number",
            "DOCUMENT_NUMBER_FORBIDDEN",
            criteria='{"x": 1.5}',
        ),
        refused(
            "contract-id-must-differ-from-the-work-order",
            "A contract id equal to its work order id",
            "IDENTIFIER_INVALID",
            work_order=CID,
        ),
        refused(
            "profile-is-required", "A contract without a profile", "FIELD_REQUIRED", profile=""
        ),
        vector(
            "contract/agents-may-not-create-contracts",
            "An agent may read contracts but not create them: ACTION_NOT_GRANTED.",
            [
                create_contract(principal=AGENT, error=(DENIED, "ACTION_NOT_GRANTED")),
                get_contract(error=(NOT_FOUND, "CONTRACT_NOT_FOUND")),
            ],
            CONTRACTS,
        ),
        vector(
            "contract/run-naming-an-unknown-contract-is-refused",
            "StartRun with a contract id that names no contract fails with CONTRACT_NOT_FOUND.",
            [
                teach(),
                start(SINGLE, contractId="${ns}-none", error=(NOT_FOUND, "CONTRACT_NOT_FOUND")),
            ],
            CONTRACTS,
        ),
        vector(
            "contract/costs-add-up-exactly",
            "Attempts under a contract report 0.1 and 0.2 microcredits; GetContract says "
            "exactly 0.3 spent and 0.7 remaining (no binary floating point).",
            [
                create_contract("1"),
                teach(),
                start(PLAIN_CHAIN, contractId=CID, input_json="null"),
                get_run(snapshot("RUNNING", contractId=CID)),
                claim_as("a1"),
                complete("a1", '{"n":1}', cost="0.1"),
                get_contract(spent("0.1", "0.9")),
                claim_as("a2"),
                complete("a2", '"done"', cost="0.2"),
                get_contract(spent("0.3", "0.7")),
                get_run(snapshot("COMPLETED", contractId=CID)),
            ],
            CONTRACTS,
        ),
        vector(
            "contract/a-reported-cost-is-stored-exactly-as-reported",
            "A cost is the worker's own figure in the one accounting unit, not an invoice, "
            "a token count or a currency conversion: a 27-digit cost (more than a double "
            "holds) is charged exactly as reported, and the remaining budget is the exact "
            "difference.",
            [
                create_contract("1000000000000000000"),
                teach(),
                start(SINGLE, contractId=CID),
                claim_as("att"),
                complete("att", "{}", cost="123456789012345678.123456789"),
                get_contract(spent("123456789012345678.123456789", "876543210987654321.876543211")),
            ],
            CONTRACTS,
        ),
        vector(
            "contract/a-refused-cost-charges-nothing",
            "A non-canonical cost is refused and charges nothing; the canonical retry of the "
            "same settlement is charged once.",
            [
                create_contract(),
                teach(),
                start(SINGLE, contractId=CID),
                claim_as("att"),
                complete("att", "{}", cost="1.50", error=(INVALID, "DECIMAL_NOT_CANONICAL")),
                get_contract(spent("0", "100")),
                complete("att", "{}", cost="7"),
                complete("att", "{}", cost="7", response={"replayed": True}),
                get_contract(spent("7", "93")),
            ],
            CONTRACTS,
        ),
        vector(
            "contract/budget-exceeded-fails-the-run",
            "After a costs 60.1 of a budget of 100, b (which may cost up to 50) is not "
            "dispatched: the run fails with result_reason BUDGET_EXCEEDED and nothing more "
            "is charged.",
            [
                create_contract("100"),
                teach(),
                start(CHAIN, contractId=CID),
                claim_as("att"),
                complete("att", "{}", cost="60.1"),
                get_contract(spent("60.1", "39.9")),
                nothing_to_claim(),
                failed_run("BUDGET_EXCEEDED"),
                get_contract(spent("60.1", "39.9")),
            ],
            CONTRACTS,
        ),
        vector(
            "contract/spent-budget-stops-dispatch",
            "A budget of 1 spent by the first attempt (nothing remains) stops the next "
            "dispatch: BUDGET_EXCEEDED.",
            [
                create_contract("1"),
                teach(),
                start(PLAIN_CHAIN, contractId=CID),
                claim_as("att"),
                complete("att", "{}", cost="1"),
                get_contract(spent("1", "0")),
                nothing_to_claim(),
                failed_run("BUDGET_EXCEEDED"),
            ],
            CONTRACTS,
        ),
        vector(
            "contract/attempt-that-may-cost-more-than-the-budget-is-not-dispatched",
            "A node that declares max_cost_microcredits 150 under a budget of 100 is never "
            "dispatched: BUDGET_EXCEEDED, nothing spent.",
            [
                create_contract("100"),
                teach(),
                start(
                    definition("a", a=node(max_cost_microcredits="150")),
                    contractId=CID,
                ),
                nothing_to_claim(),
                failed_run("BUDGET_EXCEEDED"),
                get_contract(spent("0", "100")),
            ],
            CONTRACTS,
        ),
        vector(
            "contract/a-running-attempt-reserves-its-maximum-cost",
            "While b (which may cost up to 50) runs, GetContract reports 50 reserved; when "
            "it completes the reservation is released and its reported cost charged "
            "instead. a declares no maximum cost and reserves nothing.",
            [
                create_contract("100"),
                teach(),
                start(CHAIN, contractId=CID),
                claim_as("a1"),
                get_contract(spent("0", "100", "0")),
                complete("a1", "{}", cost="10"),
                claim_as("b1"),
                get_contract(spent("10", "90", "50")),
                complete("b1", "{}", cost="20.5"),
                get_contract(spent("30.5", "69.5", "0")),
                get_run(snapshot("COMPLETED", contractId=CID)),
            ],
            CONTRACTS,
        ),
        vector(
            "contract/past-the-deadline-nothing-is-dispatched",
            "At the contract deadline the ready node is not dispatched: the run fails with "
            "result_reason DEADLINE_EXCEEDED.",
            [
                create_contract(deadline="${t0+10000}"),
                teach(),
                start(SINGLE, contractId=CID),
                claim(None, advance_ms=10_000),
                failed_run("DEADLINE_EXCEEDED"),
            ],
            CONTRACTS,
        ),
        vector(
            "contract/just-before-the-deadline-dispatch-goes-on",
            "One millisecond before the deadline an attempt without a timeout is dispatched.",
            [
                create_contract(deadline="${t0+10000}"),
                teach(),
                start(SINGLE, contractId=CID),
                claim_as("att", set_offset_ms=9_999),
                get_run(snapshot("AWAITING_NODES", contractId=CID)),
            ],
            CONTRACTS,
        ),
        vector(
            "contract/a-timeout-that-would-pass-the-deadline-is-not-dispatched",
            "A node whose 20 s timeout would end after a deadline 10 s away is not "
            "dispatched: DEADLINE_EXCEEDED.",
            [
                create_contract(deadline="${t0+10000}"),
                teach(),
                start(
                    definition("a", a=node(output=json_out({"type": "object"}), timeout_ms=20_000)),
                    contractId=CID,
                ),
                nothing_to_claim(),
                failed_run("DEADLINE_EXCEEDED"),
            ],
            CONTRACTS,
        ),
        vector(
            "contract/unknown-contract-is-not-found",
            "GetContract of an id nobody created fails with CONTRACT_NOT_FOUND.",
            [get_contract(cid="${ns}-nobody", error=(NOT_FOUND, "CONTRACT_NOT_FOUND"))],
            CONTRACTS,
        ),
    ]


def spending_vectors() -> list[dict[str, Json]]:
    return [
        vector(
            "spending/a-principals-spend-is-exact",
            "GetSpending sums the costs of the runs a principal started exactly: 0.1 and "
            "0.2 add 0.3, a further 0.7 makes a whole 1. The spend is installation-wide, so "
            "it is read first as ${s0} (always whole: only this vector spends as agent2).",
            [
                spending("agent2", captures={"s0": "spentMicrocredits"}),
                teach(),
                start(
                    definition(
                        "c",
                        a=node(output=json_out({"type": "object"})),
                        b=node("node:a", ("a",), json_out({"type": "object"})),
                        c=node("node:b", ("b",)),
                    ),
                    principal="agent2",
                ),
                claim_as("a1"),
                complete("a1", "{}", cost="0.1"),
                claim_as("a2"),
                complete("a2", "{}", cost="0.2"),
                spending(
                    "agent2",
                    response={
                        "principalId": "agent2",
                        "spentMicrocredits": "${s0}.3",
                        "capMicrocredits": None,
                        "reservedMicrocredits": "0",
                    },
                ),
                claim_as("a3"),
                complete("a3", '"done"', cost="0.7"),
                spending(
                    "alice",
                    of="agent2",
                    response={"principalId": "agent2", "spentMicrocredits": "${s0+1}"},
                ),
            ],
            CONTRACTS,
        ),
        vector(
            "spending/reading-another-principals-spend-needs-a-grant",
            "An agent reads its own spending but not another principal's: ACTION_NOT_GRANTED.",
            [
                spending(AGENT, response={"principalId": AGENT, "capMicrocredits": None}),
                spending(AGENT, of="agent2", error=(DENIED, "ACTION_NOT_GRANTED")),
            ],
            ["aiws.engine.v1.ContractService"],
        ),
        vector(
            "spending/cap-refuses-an-attempt-that-may-exceed-it",
            "The capped agent (cap 100) starts a run whose node may cost 101: it is never "
            "dispatched, the run fails with SPEND_CAP_EXCEEDED and nothing is spent.",
            [
                teach(),
                start(
                    definition("a", a=node(max_cost_microcredits="101")),
                    principal="capped",
                ),
                nothing_to_claim(),
                failed_run("SPEND_CAP_EXCEEDED"),
                spending(
                    "capped",
                    response={
                        "principalId": "capped",
                        "spentMicrocredits": "0",
                        "capMicrocredits": "100",
                        "reservedMicrocredits": "0",
                    },
                ),
            ],
            CONTRACTS,
        ),
        vector(
            "spending/a-running-attempt-reserves-against-the-cap",
            "While the capped agent's attempt that may cost 60 runs, GetSpending reports 60 "
            "reserved and its second run (node may cost 50; 60 + 50 > 100) is not "
            "dispatched: SPEND_CAP_EXCEEDED. The failed attempt releases the reservation "
            "and, reporting no cost, spends nothing.",
            [
                teach(),
                start(
                    definition("a", a=node(max_cost_microcredits="60")),
                    principal="capped",
                ),
                claim_as("att"),
                spending(
                    "capped",
                    response={
                        "principalId": "capped",
                        "spentMicrocredits": "0",
                        "reservedMicrocredits": "60",
                    },
                ),
                start(
                    definition("a", a=node(max_cost_microcredits="50")),
                    principal="capped",
                    request_id="${ns}-second",
                    capture="second",
                ),
                nothing_to_claim(),
                get_run(
                    snapshot(
                        "FAILED",
                        runId="${second}",
                        resultReason="SPEND_CAP_EXCEEDED",
                        resultError="<any>",
                    ),
                    rid="${second}",
                ),
                fail("att"),
                spending(
                    "capped",
                    response={
                        "principalId": "capped",
                        "spentMicrocredits": "0",
                        "reservedMicrocredits": "0",
                    },
                ),
            ],
            CONTRACTS,
        ),
    ]


# --- reconciliation -------------------------------------------------------------------

UNCERTAIN = "EFFECT_OUTCOME_UNCERTAIN"
APPLIED = "RECONCILIATION_DECISION_APPLIED"
NOT_APPLIED = "RECONCILIATION_DECISION_NOT_APPLIED"
EVIDENCE = {"provider_log": "charge ch_1 found", "checked_by": "alice"}
EVIDENCE_TEXT = canonical(EVIDENCE)
RESULT = {"charged": True}
RESULT_TEXT = canonical(RESULT)
RETRYING = definition(
    "a", a=node(output=json_out({"type": "object"}), retry={"attempts": 3, "backoff_ms": 0})
)


def blocked(definition_doc: Json = None, *, failed: bool = False) -> list[Json]:
    """Start a one-node run; its attempt ``${att}`` (operation ``${op}``) is UNCERTAIN."""
    settle = (
        fail("att", "timeout talking to the provider", retryable=True, effect=UNCERTAIN)
        if failed
        else complete("att", RESULT_TEXT, effect=UNCERTAIN)
    )
    return [
        teach(),
        start(definition_doc or SINGLE),
        claim_as("att", op="op"),
        settle,
    ]


def review_rec(
    decision: str | int = APPLIED,
    *,
    att: str = "${att}",
    evidence: str = EVIDENCE_TEXT,
    capture: str | None = "md",
    principal: str = "alice",
    epochs: Json = None,
    response: Json = None,
    error: tuple[str, str] | None = None,
) -> dict[str, Json]:
    """ReviewReconciliation; captures the material digest as ``${capture}``."""
    request: dict[str, Json] = {"epochs": epochs or EPOCHS, "attemptId": att}
    if decision:
        request["decision"] = decision
    if evidence:
        request["evidenceJson"] = evidence
    if error:
        return step(
            principal, "ReconciliationService", "ReviewReconciliation", request, error=error
        )
    return step(
        principal,
        "ReconciliationService",
        "ReviewReconciliation",
        request,
        response=response or {"materialDigest": "<any>"},
        captures={capture: "materialDigest"} if capture else None,
    )


def reconcile(
    approval: str,
    decision: str = APPLIED,
    *,
    request_id: str = "${ns}-rec",
    att: str = "${att}",
    evidence: str = EVIDENCE_TEXT,
    principal: str = "alice",
    response: Json = None,
    error: tuple[str, str] | None = None,
) -> dict[str, Json]:
    """Reconcile with the approval ``approval``."""
    request = {
        "epochs": EPOCHS,
        "requestId": request_id,
        "attemptId": att,
        "decision": decision,
        "evidenceJson": evidence,
        "approvalId": approval,
    }
    if error:
        return step(principal, "ReconciliationService", "Reconcile", request, error=error)
    return step(
        principal,
        "ReconciliationService",
        "Reconcile",
        request,
        response=response or {"reconciliation": {"state": "RECONCILIATION_STATE_RESOLVED"}},
    )


def reviewed(approval: str, decision: str = APPLIED, *, att: str = "${att}", md: str = "md"):
    """Alice reviews a decision and approves its material as ``approval``."""
    return [review_rec(decision, att=att, capture=md), approve(approval, md)]


def list_rec(expected: list[Json] | None, *, principal: str = AGENT) -> dict[str, Json]:
    """ListReconciliations of ``${run}``."""
    return step(
        principal,
        "ReconciliationService",
        "ListReconciliations",
        {"runId": "${run}"},
        response={"reconciliations": expected},
    )


def rec(state: str = "PENDING", *, completed: bool = True, **fields: Json) -> dict[str, Json]:
    """The expected Reconciliation of ``${att}`` on node ``a``."""
    out: dict[str, Json] = {
        "attemptId": "${att}",
        "runId": "${run}",
        "nodeUid": "a",
        "operationId": "${op}",
        "completed": True if completed else None,
        "state": f"RECONCILIATION_STATE_{state}",
    }
    if state == "PENDING":
        out.update(
            decision=None, evidenceJson=None, approvalId=None, decidedBy=None, decidedAtMs=None
        )
    out.update(fields)
    return out


def node_state(uid: str, state: str, **fields: Json) -> dict[str, Json]:
    """A NodeStatus pattern: uid and state only (plus ``fields``)."""
    return {"nodeUid": uid, "state": f"NODE_STATE_{state}", **fields}


def reconciliation_vectors() -> list[dict[str, Json]]:
    material = {
        "epochs": EPOCHS,
        "workOrderId": "default",  # the run's: an ad hoc run naming none is in `default`
        "runId": "${run}",
        "nodeUid": "a",
        "operationId": "${op}",
        "attemptId": "${att}",
        "completed": True,
        "decision": APPLIED,
        "evidenceDigest": digest_of(EVIDENCE),
        "resultDigest": digest_of(RESULT),
    }
    resolved = rec(
        "RESOLVED",
        decision=APPLIED,
        evidenceJson=EVIDENCE_TEXT,
        approvalId="${ns}-ap",
        decidedBy="alice",
        openedAtMs="${t0}",
        decidedAtMs="${t0}",
        error=None,
    )
    return [
        vector(
            "reconcile/uncertain-effect-blocks-the-node",
            "A completion with an UNCERTAIN effect blocks its node: the run awaits, nothing "
            "is retried, and ListReconciliations shows one pending reconciliation of that "
            "attempt and operation.",
            [
                *blocked(),
                get_run(
                    snapshot(
                        "AWAITING_NODES", [node_state("a", "BLOCKED", attempts=1)], resultJson=None
                    )
                ),
                nothing_to_claim(),
                list_rec([rec(openedAtMs="${t0}", error=None)]),
            ],
            RECONCILE,
        ),
        vector(
            "reconcile/review-returns-the-exact-material",
            "ReviewReconciliation returns the material a human approves: epochs, run, node, "
            "operation and attempt, the decision, and the digests of the evidence and of the "
            "attempt's result; the same review gives the same digest and writes nothing.",
            [
                *blocked(),
                review_rec(response={"material": material, "materialDigest": "<any>"}),
                review_rec(response={"materialDigest": "${md}"}, capture=None),
                list_rec([rec()]),
            ],
            RECONCILE,
        ),
        vector(
            "reconcile/applied-settles-the-node-with-the-attempts-result",
            "A human reviews APPLIED, approves the material's digest, and Reconcile "
            "consumes the approval: the reconciliation is resolved and the run completes "
            "with the uncertain attempt's result, without a retry.",
            [
                *blocked(),
                *reviewed("${ns}-ap"),
                reconcile("${ns}-ap", response={"reconciliation": resolved, "replayed": None}),
                get_run(
                    snapshot(
                        "COMPLETED", [node_state("a", "DONE", attempts=1)], resultJson=RESULT_TEXT
                    )
                ),
                list_rec([resolved]),
                step(
                    "alice",
                    "ApprovalService",
                    "GetApproval",
                    {"approvalId": "${ns}-ap"},
                    response={
                        "approval": {
                            "state": "APPROVAL_STATE_CONSUMED",
                            "consumedByRequestId": "${ns}-rec",
                        }
                    },
                ),
            ],
            RECONCILE,
        ),
        vector(
            "reconcile/repeated-request-replays-and-a-new-one-is-not-pending",
            "The same Reconcile request again returns the decision with replayed = true; a "
            "new request for the decided attempt fails with RECONCILIATION_NOT_PENDING.",
            [
                *blocked(),
                *reviewed("${ns}-ap"),
                reconcile("${ns}-ap"),
                reconcile("${ns}-ap", response={"reconciliation": resolved, "replayed": True}),
                reconcile(
                    "${ns}-ap",
                    request_id="${ns}-rec-2",
                    error=(FAILED, "RECONCILIATION_NOT_PENDING"),
                ),
            ],
            RECONCILE,
        ),
        vector(
            "reconcile/not-applied-retries-under-the-same-operation",
            "A failure with an UNCERTAIN effect is never retried on its own; after a "
            "reviewed NOT_APPLIED the node is retried as attempt 2 of the same operation "
            "and the run completes.",
            [
                *blocked(RETRYING, failed=True),
                nothing_to_claim(),
                list_rec([rec(completed=False, error="timeout talking to the provider")]),
                *reviewed("${ns}-ap", NOT_APPLIED),
                reconcile(
                    "${ns}-ap",
                    NOT_APPLIED,
                    response={
                        "reconciliation": {
                            "state": "RECONCILIATION_STATE_RESOLVED",
                            "decision": NOT_APPLIED,
                            "completed": None,
                        }
                    },
                ),
                claim(
                    [
                        task(
                            "a",
                            attempt=2,
                            operationId="${op}",
                            output=canonical({"schema": {"type": "object"}, "type": "json"}),
                        )
                    ],
                    captures={"att2": "tasks.0.attemptId"},
                ),
                complete("att2", '{"charged":false}'),
                get_run(
                    snapshot(
                        "COMPLETED",
                        [
                            node_state(
                                "a", "DONE", attempts=2, operationId="${op}", attemptId="${att2}"
                            )
                        ],
                        resultJson='{"charged":false}',
                    )
                ),
            ],
            RECONCILE,
        ),
        vector(
            "reconcile/applied-failure-fails-the-node-for-good",
            "A failed attempt whose UNCERTAIN effect is reviewed as APPLIED is not repeated: "
            "the node and the run fail.",
            [
                *blocked(RETRYING, failed=True),
                review_rec(response={"material": {"completed": None, "resultDigest": None}}),
                approve("${ns}-ap"),
                reconcile("${ns}-ap"),
                nothing_to_claim(),
                get_run(snapshot("FAILED", [node_state("a", "FAILED", attempts=1)])),
            ],
            RECONCILE,
        ),
        vector(
            "reconcile/blocked-branch-outside-the-output-blocks-completion",
            "An uncertain effect on a branch the output does not read still blocks the "
            "run's completion until it is reconciled: the run is COMPLETING meanwhile.",
            [
                teach("", "side"),
                start(
                    definition(
                        "a",
                        a=node(output=json_out({"type": "object"})),
                        side=node(output=json_out({"type": "object"}), tag="side"),
                    )
                ),
                claim_as("att", op="op", tag="side"),
                complete("att", RESULT_TEXT, effect=UNCERTAIN),
                claim_as("main"),
                complete("main", "{}"),
                get_run(
                    snapshot("COMPLETING", [node_state("a", "DONE"), node_state("side", "BLOCKED")])
                ),
                *reviewed("${ns}-ap"),
                reconcile("${ns}-ap"),
                get_run(snapshot("COMPLETED", resultJson="{}")),
            ],
            RECONCILE,
        ),
        vector(
            "reconcile/approval-of-another-decision-is-a-mismatch",
            "An approval of the NOT_APPLIED material does not authorize recording APPLIED: "
            "APPROVAL_MISMATCH, and the node stays blocked.",
            [
                *blocked(),
                *reviewed("${ns}-ap", NOT_APPLIED),
                reconcile("${ns}-ap", APPLIED, error=(FAILED, "APPROVAL_MISMATCH")),
                list_rec([rec()]),
            ],
            RECONCILE,
        ),
        vector(
            "reconcile/evidence-other-than-reviewed-is-a-mismatch",
            "Reconcile with evidence other than the reviewed evidence fails with "
            "APPROVAL_MISMATCH.",
            [
                *blocked(),
                *reviewed("${ns}-ap"),
                reconcile(
                    "${ns}-ap",
                    evidence=canonical({"provider_log": "nothing found"}),
                    error=(FAILED, "APPROVAL_MISMATCH"),
                ),
            ],
            RECONCILE,
        ),
        vector(
            "reconcile/consumed-approval-cannot-be-reused",
            "Two nodes blocked by uncertain effects: the approval consumed by the first "
            "decision fails the second with APPROVAL_CONSUMED.",
            [
                teach(),
                start(
                    definition(
                        "a",
                        a=node(output=json_out({"type": "object"})),
                        b=node(output=json_out({"type": "object"})),
                    )
                ),
                claim(
                    [{"attemptId": "<any>"}, {"attemptId": "<any>"}],
                    max_tasks=2,
                    captures={"att": "tasks.0.attemptId", "att1": "tasks.1.attemptId"},
                ),
                complete("att", RESULT_TEXT, effect=UNCERTAIN),
                complete("att1", RESULT_TEXT, effect=UNCERTAIN),
                *reviewed("${ns}-ap"),
                reconcile("${ns}-ap"),
                reconcile(
                    "${ns}-ap",
                    request_id="${ns}-rec-2",
                    att="${att1}",
                    error=(FAILED, "APPROVAL_CONSUMED"),
                ),
            ],
            RECONCILE,
        ),
        vector(
            "reconcile/unknown-approval-is-refused",
            "Reconcile naming an approval nobody created fails with APPROVAL_NOT_FOUND.",
            [*blocked(), reconcile("${ns}-ap-none", error=(FAILED, "APPROVAL_NOT_FOUND"))],
            RECONCILE,
        ),
        vector(
            "reconcile/expired-approval-is-refused",
            "An approval that expired before Reconcile fails with APPROVAL_EXPIRED; the "
            "node stays blocked.",
            [
                *blocked(),
                review_rec(),
                approve("${ns}-ap", expires="${t0+60000}"),
                {"clock": {"advanceMs": "60000"}},
                reconcile("${ns}-ap", error=(FAILED, "APPROVAL_EXPIRED")),
                list_rec([rec()]),
            ],
            RECONCILE,
        ),
        vector(
            "reconcile/an-agent-may-review-but-not-decide",
            "An agent may read the material but Reconcile needs the reconcile.decide grant: "
            "ACTION_NOT_GRANTED.",
            [
                *blocked(),
                review_rec(principal=AGENT, capture=None),
                *reviewed("${ns}-ap"),
                reconcile("${ns}-ap", principal=AGENT, error=(DENIED, "ACTION_NOT_GRANTED")),
                list_rec([rec()]),
            ],
            RECONCILE,
        ),
        vector(
            "reconcile/an-agent-cannot-approve-the-material",
            "An agent granted everything may review, but its CreateApproval of the material "
            "fails with HUMAN_REQUIRED.",
            [
                *blocked(),
                review_rec(principal="rogue"),
                approve("${ns}-ap", principal="rogue", error=(DENIED, "HUMAN_REQUIRED")),
                reconcile("${ns}-ap", error=(FAILED, "APPROVAL_NOT_FOUND")),
            ],
            RECONCILE,
        ),
        vector(
            "reconcile/bad-review-requests-are-refused",
            "ReviewReconciliation refuses a missing decision (ENUM_INVALID), missing "
            "evidence (FIELD_REQUIRED), malformed evidence (DOCUMENT_MALFORMED), an unknown "
            "attempt (ATTEMPT_NOT_FOUND) and stale epochs (EPOCH_MISMATCH).",
            [
                *blocked(),
                review_rec("", error=(INVALID, "ENUM_INVALID")),
                review_rec(evidence="", error=(INVALID, "FIELD_REQUIRED")),
                review_rec(evidence="{", error=(INVALID, "DOCUMENT_MALFORMED")),
                review_rec(att="att_${ns}", error=(NOT_FOUND, "ATTEMPT_NOT_FOUND")),
                review_rec(
                    epochs={**EPOCHS, "ownershipEpoch": "2"}, error=(FAILED, "EPOCH_MISMATCH")
                ),
                list_rec([rec()]),
            ],
            RECONCILE,
        ),
        vector(
            "reconcile/decision-out-of-the-enum-is-refused",
            "A decision number outside the enum reaches the server and fails with "
            "ENUM_INVALID; an unknown decision name cannot be encoded by the client.",
            [
                *blocked(),
                review_rec(99, error=(INVALID, "ENUM_INVALID")),
                step(
                    "alice",
                    "ReconciliationService",
                    "ReviewReconciliation",
                    {
                        "epochs": EPOCHS,
                        "attemptId": "${att}",
                        "decision": "RECONCILIATION_DECISION_MAYBE",
                        "evidenceJson": EVIDENCE_TEXT,
                    },
                    client_error="unknown enum name",
                ),
            ],
            RECONCILE,
        ),
    ]


# --- waits ----------------------------------------------------------------------------

APPROVAL = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}
APPROVAL_TEXT = canonical(APPROVAL)
EXPIRES = 60_000
JSON_OBJECT = json_out({"type": "object"})


def wait_node(kind: str = "human_input", on_expiry: str = "fail", **extra: Json) -> Json:
    """A wait node document."""
    wait: dict[str, Json] = {"expires_in_ms": EXPIRES, "schema": APPROVAL, "on_expiry": on_expiry}
    wait.update(extra)
    return {"kind": kind, "wait": wait}


def waiting(kind: str = "human_input", on_expiry: str = "fail", **extra: Json) -> Json:
    """ask (a wait) -> use (an agent reading the wait's payload)."""
    return definition(
        "use", ask=wait_node(kind, on_expiry, **extra), use=node("node:ask", ("ask",), JSON_OBJECT)
    )


def list_waits(expected: list[Json] | None, *, captures: dict[str, str] | None = None):
    """ListWaits of ``${run}``."""
    return step(
        AGENT,
        "WaitService",
        "ListWaits",
        {"runId": "${run}"},
        response={"waits": expected},
        captures=captures,
    )


def wait_of(
    uid: str = "ask",
    state: str = "PENDING",
    kind: str = "HUMAN_INPUT",
    **fields: Json,
) -> dict[str, Json]:
    """The expected Wait."""
    out: dict[str, Json] = {
        "waitId": "<any>",
        "runId": "${run}",
        "nodeUid": uid,
        "kind": f"WAIT_KIND_{kind}",
        "state": f"WAIT_STATE_{state}",
    }
    if state == "PENDING":
        out.update(payloadJson=None, satisfiedBy=None, satisfiedAtMs=None)
    out.update(fields)
    return out


def pending(opened: str = "${t0}", expires: str = f"${{t0+{EXPIRES}}}", **fields: Json) -> Json:
    """The expected pending human-input wait of node ``ask``."""
    return wait_of(
        openedAtMs=opened,
        expiresAtMs=expires,
        schemaJson=APPROVAL_TEXT,
        onExpiry="WAIT_EXPIRY_FAIL",
        defaultJson=None,
        **fields,
    )


def satisfy(
    payload: str,
    *,
    request_id: str = "${ns}-s1",
    wait: str = "${wait}",
    principal: str = AGENT,
    approval: str = "",
    response: Json = None,
    error: tuple[str, str] | None = None,
    **clock_args: Any,
) -> dict[str, Json]:
    """SatisfyWait (naming ``approval`` when given)."""
    request = {"requestId": request_id, "waitId": wait, "payloadJson": payload}
    if approval:
        request["approvalId"] = approval
    if error:
        return step(principal, "WaitService", "SatisfyWait", request, error=error, **clock_args)
    return step(
        principal,
        "WaitService",
        "SatisfyWait",
        request,
        response=response or {"wait": {"state": "WAIT_STATE_SATISFIED"}, "replayed": None},
        **clock_args,
    )


def opened(document: Json = None) -> list[Json]:
    """Teach, start ``document`` (default: ask -> use) and capture the wait as ``${wait}``."""
    return [
        teach(),
        start(document or waiting()),
        list_waits([{"waitId": "<any>"}], captures={"wait": "waits.0.waitId"}),
    ]


def use_task(input_json: str, uid: str = "use", at: int = 0) -> dict[str, Json]:
    """The expected task of node ``uid`` reading a wait's result, claimed at ``t0+at``."""
    return task(
        uid,
        input_json=input_json,
        lease_until=f"${{t0+{at + LEASE}}}",
        output=canonical({"schema": {"type": "object"}, "type": "json"}),
    )


def review_wait(
    payload: str = '{"ok":true}',
    *,
    wait: str = "${wait}",
    capture: str | None = "md",
    principal: str = "alice",
    response: Json = None,
    error: tuple[str, str] | None = None,
) -> dict[str, Json]:
    """ReviewWait; captures the material digest as ``${capture}``."""
    request = {"waitId": wait, "payloadJson": payload}
    if error:
        return step(principal, "WaitService", "ReviewWait", request, error=error)
    return step(
        principal,
        "WaitService",
        "ReviewWait",
        request,
        response=response or {"materialDigest": "<any>"},
        captures={capture: "materialDigest"} if capture else None,
    )


def approve_for(
    approval_id: str,
    purpose: str,
    *,
    md: str = "md",
    principal: str = "alice",
    response: Json = None,
    error: tuple[str, str] | None = None,
) -> dict[str, Json]:
    """CreateApproval of ``${md}`` naming ``purpose``."""
    request = {
        "approvalId": approval_id,
        "materialDigest": "${" + md + "}",
        "expiresAtMs": "${t0+600000}",
        "purpose": purpose,
    }
    return step(
        principal, "ApprovalService", "CreateApproval", request, response=response, error=error
    )


OK_DIGEST = digest_of({"ok": True})


def authorization_vectors() -> list[dict[str, Json]]:
    """Authorization waits approve an exact action; grants have purposes and windows."""
    action = {
        "nodeUid": "use",
        "model": model(),
        "operationId": "${op}",
        "specDigest": "<any>",
        "fanout": None,
    }
    material = {
        "epochs": EPOCHS,
        "workOrderId": "default",  # an ad hoc run without a contract
        "runId": "${run}",
        "waitId": "${wait}",
        "nodeUid": "ask",
        "expiresAtMs": f"${{t0+{EXPIRES}}}",
        "purpose": None,
        "payloadDigest": OK_DIGEST,
        "actions": [{**action, "inputDigest": OK_DIGEST}],
    }
    authorizing = [
        teach(),
        start(waiting("authorization")),
        list_waits(
            [
                wait_of(
                    kind="AUTHORIZATION",
                    authorizes=[{**action, "operationId": "<any>", "inputDigest": None}],
                )
            ],
            captures={"wait": "waits.0.waitId", "op": "waits.0.authorizes.0.operationId"},
        ),
    ]
    approved_wait = {
        "waitId": "${wait}",
        "state": "WAIT_STATE_SATISFIED",
        "approvalId": "${ns}-ap",
        "materialDigest": "${md}",
        "authorizes": [{**action, "inputDigest": OK_DIGEST}],
    }
    purposed = definition(
        "use",
        ask=wait_node("authorization", purpose="payments"),
        use=node("node:ask", ("ask",), JSON_OBJECT),
    )
    return [
        vector(
            "wait/authorization-approves-its-exact-action",
            "An open authorization wait names the action it authorises: the agent node that "
            "depends on it, its model, operation id and spec digest. Without an approval "
            "SatisfyWait fails with AUTHORIZATION_APPROVAL_REQUIRED; ReviewWait returns the "
            "material (epochs, run, wait, expiry, payload digest, the action with its input "
            "digest); its approval satisfies the wait once, recorded on the wait and "
            "consumed; the node's task carries the approved operation id.",
            [
                *authorizing,
                satisfy(
                    '{"ok":true}',
                    principal="alice",
                    error=(FAILED, "AUTHORIZATION_APPROVAL_REQUIRED"),
                ),
                review_wait(response={"material": material, "materialDigest": "<any>"}),
                review_wait(response={"materialDigest": "${md}"}, capture=None),
                approve("${ns}-ap"),
                satisfy(
                    '{"ok":true}',
                    principal="alice",
                    approval="${ns}-ap",
                    response={"wait": approved_wait, "replayed": None},
                ),
                satisfy(
                    '{"ok":true}',
                    principal="alice",
                    approval="${ns}-ap",
                    response={"wait": approved_wait, "replayed": True},
                ),
                step(
                    "alice",
                    "ApprovalService",
                    "GetApproval",
                    {"approvalId": "${ns}-ap"},
                    response={
                        "approval": {
                            "state": "APPROVAL_STATE_CONSUMED",
                            "consumedByRequestId": "${ns}-s1",
                        }
                    },
                ),
                claim([{"nodeUid": "use", "operationId": "${op}", "inputJson": '{"ok":true}'}]),
            ],
            WAITS,
        ),
        vector(
            "wait/authorization-refuses-another-payloads-approval",
            "The approval of another payload's material fails with APPROVAL_MISMATCH, "
            "consumes nothing, and the wait stays pending.",
            [
                *authorizing,
                review_wait('{"ok":false}'),
                approve("${ns}-ap"),
                satisfy(
                    '{"ok":true}',
                    principal="alice",
                    approval="${ns}-ap",
                    error=(FAILED, "APPROVAL_MISMATCH"),
                ),
                step(
                    "alice",
                    "ApprovalService",
                    "GetApproval",
                    {"approvalId": "${ns}-ap"},
                    response={"approval": {"state": "APPROVAL_STATE_ACTIVE"}},
                ),
                list_waits([wait_of(kind="AUTHORIZATION")]),
            ],
            WAITS,
        ),
        vector(
            "wait/authorization-approval-is-used-once",
            "An approval that satisfied one authorization wait fails with APPROVAL_CONSUMED "
            "on another run's wait.",
            [
                *authorizing,
                review_wait(),
                approve("${ns}-ap"),
                satisfy('{"ok":true}', principal="alice", approval="${ns}-ap"),
                start(waiting("authorization"), request_id="${ns}-start-2", capture="run2"),
                step(
                    AGENT,
                    "WaitService",
                    "ListWaits",
                    {"runId": "${run2}"},
                    response={"waits": [{"waitId": "<any>"}]},
                    captures={"wait2": "waits.0.waitId"},
                ),
                satisfy(
                    '{"ok":true}',
                    wait="${wait2}",
                    request_id="${ns}-s2",
                    principal="alice",
                    approval="${ns}-ap",
                    error=(FAILED, "APPROVAL_CONSUMED"),
                ),
            ],
            WAITS,
        ),
        vector(
            "wait/authorization-refuses-an-expired-approval",
            "An approval that has expired fails with APPROVAL_EXPIRED and the wait stays pending.",
            [
                *authorizing,
                review_wait(),
                step(
                    "alice",
                    "ApprovalService",
                    "CreateApproval",
                    {
                        "approvalId": "${ns}-ap",
                        "materialDigest": "${md}",
                        "expiresAtMs": "${t0+1000}",
                    },
                ),
                satisfy(
                    '{"ok":true}',
                    principal="alice",
                    approval="${ns}-ap",
                    error=(FAILED, "APPROVAL_EXPIRED"),
                    advance_ms=1000,
                ),
                list_waits([wait_of(kind="AUTHORIZATION")]),
            ],
            WAITS,
        ),
        vector(
            "wait/other-waits-take-no-approval",
            "A human_input wait is neither reviewed nor satisfied with an approval "
            "(APPROVAL_NOT_APPLICABLE); it is satisfied as before.",
            [
                *opened(),
                review_wait(error=(INVALID, "APPROVAL_NOT_APPLICABLE")),
                satisfy(
                    '{"ok":true}',
                    approval="${ns}-ap",
                    error=(INVALID, "APPROVAL_NOT_APPLICABLE"),
                ),
                satisfy('{"ok":true}'),
            ],
            WAITS,
        ),
        vector(
            "wait/authorization-purpose-needs-a-grant-and-an-approval-for-it",
            "A wait that declares the purpose `payments` is approved only for that purpose: "
            "payer (whose grants beyond reads are for `payments` only) cannot approve "
            "without naming it (PURPOSE_NOT_GRANTED), an approval naming no purpose fails "
            "with APPROVAL_PURPOSE_MISMATCH, and payer's approval for `payments` satisfies it.",
            [
                teach(),
                start(purposed),
                list_waits(
                    [{"waitId": "<any>", "purpose": "payments"}],
                    captures={"wait": "waits.0.waitId"},
                ),
                review_wait(
                    principal="payer",
                    response={"material": {"purpose": "payments"}, "materialDigest": "<any>"},
                ),
                approve_for(
                    "${ns}-ap0", "", principal="payer", error=(DENIED, "PURPOSE_NOT_GRANTED")
                ),
                approve_for("${ns}-ap1", ""),
                satisfy(
                    '{"ok":true}',
                    principal="alice",
                    approval="${ns}-ap1",
                    error=(FAILED, "APPROVAL_PURPOSE_MISMATCH"),
                ),
                approve_for(
                    "${ns}-ap2",
                    "payments",
                    principal="payer",
                    response={"approval": {"purpose": "payments"}},
                ),
                satisfy(
                    '{"ok":true}',
                    principal="payer",
                    approval="${ns}-ap2",
                    request_id="${ns}-s2",
                ),
            ],
            ["aiws.engine.v1.ApprovalService", *WAITS],
        ),
        vector(
            "wait/approver-grant-outside-its-window-is-refused",
            "lapsed's grant of everything beyond reads ended at 1800000000000: its "
            "CreateApproval fails with GRANT_OUTSIDE_WINDOW, while its reads still work.",
            [
                *authorizing,
                review_wait(principal="lapsed"),
                approve("${ns}-ap", principal="lapsed", error=(DENIED, "GRANT_OUTSIDE_WINDOW")),
            ],
            ["aiws.engine.v1.ApprovalService", *WAITS],
        ),
    ]


def waits_vectors() -> list[dict[str, Json]]:
    on_time = f"${{t0+{EXPIRES}}}"
    return [
        vector(
            "wait/human-input-node-waits",
            "A human_input node opens a pending wait when its run starts: expiry 60 s after "
            "opening, its schema as canonical JSON, failing on expiry. Its node is WAITING, "
            "the node reading it PENDING, and no task exists.",
            [
                teach(),
                start(waiting()),
                list_waits([pending()], captures={"wait": "waits.0.waitId"}),
                step(
                    AGENT,
                    "WaitService",
                    "GetWait",
                    {"waitId": "${wait}"},
                    response={"wait": pending(waitId="${wait}")},
                ),
                get_run(
                    snapshot(
                        "RUNNING",
                        [node_state("ask", "WAITING"), node_state("use", "PENDING")],
                    )
                ),
                nothing_to_claim(),
            ],
            WAITS,
        ),
        vector(
            "wait/payload-is-validated-against-the-schema",
            "A payload that does not match the wait's schema fails with "
            "WAIT_PAYLOAD_INVALID and the wait stays pending.",
            [
                *opened(),
                satisfy('{"ok":"yes"}', error=(INVALID, "WAIT_PAYLOAD_INVALID")),
                satisfy("{}", request_id="${ns}-s2", error=(INVALID, "WAIT_PAYLOAD_INVALID")),
                list_waits([pending()]),
            ],
            WAITS,
        ),
        vector(
            "wait/valid-payload-satisfies-and-feeds-the-next-node",
            "SatisfyWait with a valid payload satisfies the wait; the payload is the wait "
            "node's result, the input of the node that reads it, and the run completes.",
            [
                *opened(),
                satisfy(
                    '{"ok":true}',
                    response={
                        "wait": {
                            "waitId": "${wait}",
                            "state": "WAIT_STATE_SATISFIED",
                            "payloadJson": '{"ok":true}',
                            "satisfiedBy": AGENT,
                            "satisfiedAtMs": "${t0}",
                        },
                        "replayed": None,
                    },
                ),
                claim([use_task('{"ok":true}')], captures={"att": "tasks.0.attemptId"}),
                complete("att", '{"used":true}'),
                get_run(
                    snapshot(
                        "COMPLETED",
                        [node_state("ask", "DONE"), node_state("use", "DONE")],
                        resultJson='{"used":true}',
                    )
                ),
            ],
            WAITS,
        ),
        vector(
            "wait/same-request-replays",
            "The same SatisfyWait request again returns the wait with replayed = true.",
            [
                *opened(),
                satisfy('{"ok":true}'),
                satisfy(
                    '{"ok":true}',
                    response={
                        "wait": {"state": "WAIT_STATE_SATISFIED", "payloadJson": '{"ok":true}'},
                        "replayed": True,
                    },
                ),
            ],
            WAITS,
        ),
        vector(
            "wait/already-satisfied-is-refused",
            "A second satisfaction (a new request) fails with WAIT_ALREADY_SATISFIED; the "
            "first payload stays.",
            [
                *opened(),
                satisfy('{"ok":true}'),
                satisfy(
                    '{"ok":false}', request_id="${ns}-s2", error=(FAILED, "WAIT_ALREADY_SATISFIED")
                ),
                list_waits([wait_of(state="SATISFIED", payloadJson='{"ok":true}')]),
            ],
            WAITS,
        ),
        vector(
            "wait/never-expires-early",
            "One millisecond before its expiry the wait is still pending and can be satisfied.",
            [
                *opened(),
                {"clock": {"setOffsetMs": str(EXPIRES - 1)}},
                list_waits([pending()]),
                satisfy(
                    '{"ok":true}',
                    response={
                        "wait": {
                            "state": "WAIT_STATE_SATISFIED",
                            "satisfiedAtMs": f"${{t0+{EXPIRES - 1}}}",
                        }
                    },
                ),
            ],
            WAITS,
        ),
        vector(
            "wait/at-its-expiry-it-is-expired",
            "At its expiry time the wait is EXPIRED and SatisfyWait fails with "
            "WAIT_EXPIRED, whether or not the server has applied the expiry yet; a retry "
            "later fails the same way.",
            [
                *opened(),
                satisfy('{"ok":true}', error=(FAILED, "WAIT_EXPIRED"), set_offset_ms=EXPIRES),
                list_waits([wait_of(state="EXPIRED", payloadJson=None, satisfiedBy=None)]),
                satisfy(
                    '{"ok":true}',
                    request_id="${ns}-s2",
                    error=(FAILED, "WAIT_EXPIRED"),
                    advance_ms=1_000,
                ),
            ],
            WAITS,
        ),
        vector(
            "wait/expired-timer-takes-its-default",
            "A timer that expires takes the definition's default: it becomes the input of "
            "the node that reads it (a long-polling claim sees it once the expiry is "
            "applied) and the wait is DEFAULTED.",
            [
                teach(),
                start(waiting("timer", "default", default={"ok": False})),
                list_waits(
                    [
                        wait_of(
                            kind="TIMER",
                            onExpiry="WAIT_EXPIRY_DEFAULT",
                            defaultJson='{"ok":false}',
                            expiresAtMs=on_time,
                        )
                    ]
                ),
                claim([use_task('{"ok":false}', at=EXPIRES)], advance_ms=EXPIRES),
                list_waits(
                    [
                        wait_of(
                            state="DEFAULTED",
                            kind="TIMER",
                            payloadJson=None,
                            satisfiedBy=None,
                            defaultJson='{"ok":false}',
                        )
                    ]
                ),
            ],
            WAITS,
        ),
        vector(
            "wait/default-is-not-taken-early",
            "One millisecond before its expiry a timer is pending and the node reading it "
            "is not ready.",
            [
                teach(),
                start(waiting("timer", "default", default={"ok": False})),
                claim(None, set_offset_ms=EXPIRES - 1),
                list_waits([wait_of(kind="TIMER", expiresAtMs=on_time)]),
                get_run(
                    snapshot(
                        "RUNNING",
                        [node_state("ask", "WAITING"), node_state("use", "PENDING")],
                    )
                ),
            ],
            WAITS,
        ),
        vector(
            "wait/expiry-fails-a-wait-and-defaults-another-together",
            "A human_input wait that fails on expiry and a timer with a default expire at the "
            "same time: once the node reading the timer is ready, the timer is DEFAULTED and "
            "the other wait EXPIRED with its node FAILED (the output does not read it).",
            [
                teach(),
                start(
                    definition(
                        "use",
                        ask=wait_node(),
                        timer=wait_node("timer", "default", default={"ok": True}),
                        use=node("node:timer", ("timer",), JSON_OBJECT),
                    )
                ),
                claim([use_task('{"ok":true}', at=EXPIRES)], advance_ms=EXPIRES),
                list_waits(
                    [
                        wait_of("ask", "EXPIRED", payloadJson=None),
                        wait_of("timer", "DEFAULTED", "TIMER", payloadJson=None),
                    ]
                ),
                get_run(
                    snapshot(
                        "AWAITING_NODES",
                        [
                            node_state("ask", "FAILED"),
                            node_state("timer", "DONE"),
                            node_state("use", "RUNNING"),
                        ],
                    )
                ),
                satisfy('{"ok":true}', wait="${ns}-unused", error=(NOT_FOUND, "WAIT_NOT_FOUND")),
            ],
            WAITS,
        ),
        vector(
            "wait/two-defaults-due-together-are-both-taken",
            "Two timers expiring together both take their defaults; the join reads them "
            "keyed by node.",
            [
                teach(),
                start(
                    definition(
                        "join",
                        t1=wait_node("timer", "default", default={"ok": True}),
                        t2=wait_node("timer", "default", default={"ok": False}),
                        join=node(["node:t1", "node:t2"], ("t1", "t2"), JSON_OBJECT),
                    )
                ),
                claim(
                    [use_task('{"t1":{"ok":true},"t2":{"ok":false}}', "join", EXPIRES)],
                    advance_ms=EXPIRES,
                ),
                list_waits(
                    [wait_of("t1", "DEFAULTED", "TIMER"), wait_of("t2", "DEFAULTED", "TIMER")]
                ),
            ],
            WAITS,
        ),
        vector(
            "wait/authorization-needs-a-human",
            "An authorization wait refuses an agent's satisfaction with HUMAN_REQUIRED and "
            "accepts a human's, with the approval of its material.",
            [
                *opened(waiting("authorization")),
                satisfy('{"ok":true}', error=(DENIED, "HUMAN_REQUIRED")),
                review_wait(),
                approve("${ns}-ap"),
                satisfy(
                    '{"ok":true}',
                    principal="alice",
                    approval="${ns}-ap",
                    response={
                        "wait": {
                            "kind": "WAIT_KIND_AUTHORIZATION",
                            "state": "WAIT_STATE_SATISFIED",
                            "satisfiedBy": "alice",
                        }
                    },
                ),
            ],
            WAITS,
        ),
        *authorization_vectors(),
        vector(
            "wait/opens-only-after-its-dependencies",
            "A wait that depends on another node is NOT_OPEN (no times) and refuses "
            "satisfaction with WAIT_NOT_OPEN; it opens when the dependency is done and "
            "expires 60 s after that.",
            [
                teach(),
                start(
                    definition(
                        "ask",
                        draft=node(output=JSON_OBJECT),
                        ask={
                            **wait_node(),
                            "depends_on": ["draft"],
                            "input": {"from": "node:draft"},
                        },
                    )
                ),
                list_waits(
                    [wait_of(state="NOT_OPEN", openedAtMs=None, expiresAtMs=None)],
                    captures={"wait": "waits.0.waitId"},
                ),
                satisfy('{"ok":true}', error=(FAILED, "WAIT_NOT_OPEN")),
                claim_as("att", advance_ms=1_000),
                complete("att", "{}"),
                list_waits([pending(opened="${t0+1000}", expires=f"${{t0+{EXPIRES + 1000}}}")]),
            ],
            WAITS,
        ),
        vector(
            "wait/bad-satisfy-requests-are-refused",
            "SatisfyWait refuses an unknown wait (WAIT_NOT_FOUND), a payload outside the "
            "document profile (DOCUMENT_NUMBER_FORBIDDEN) and a malformed request id "
            "(IDENTIFIER_INVALID); the wait stays pending.",
            [
                *opened(),
                satisfy('{"ok":true}', wait="wait_missing", error=(NOT_FOUND, "WAIT_NOT_FOUND")),
                satisfy("1.5", error=(INVALID, "DOCUMENT_NUMBER_FORBIDDEN")),
                satisfy('{"ok":true}', request_id="bad id", error=(INVALID, "IDENTIFIER_INVALID")),
                list_waits([pending()]),
            ],
            WAITS,
        ),
        *[
            vector(
                f"wait/definition-{name}-is-invalid",
                f"A wait node {what} fails StartRun with DEFINITION_INVALID.",
                [teach(), start(definition("ask", ask=ask), error=(INVALID, "DEFINITION_INVALID"))],
                WAITS,
            )
            for name, what, ask in [
                ("without-wait-block", "without a wait block", {"kind": "human_input"}),
                ("of-unknown-kind", "of an unknown kind", {"kind": "pager", "wait": {}}),
                (
                    "default-outside-schema",
                    "whose default does not match its schema",
                    wait_node(on_expiry="default", default={"ok": "no"}),
                ),
                (
                    "with-an-agent",
                    "that also names an agent",
                    {**wait_node(), "agent": {"model": model()}},
                ),
                (
                    "question-too-long",
                    "whose question is longer than 4,096 characters",
                    wait_node(question="?" * 4_097),
                ),
                (
                    "choice-outside-schema",
                    "whose choice does not match its schema",
                    wait_node(choices=["ship"]),
                ),
                (
                    "repeated-choice",
                    "whose choices repeat one",
                    {
                        "kind": "human_input",
                        "wait": {
                            "expires_in_ms": EXPIRES,
                            "on_expiry": "fail",
                            "choices": ["a", "a"],
                        },
                    },
                ),
                (
                    "timer-question",
                    "of kind timer that asks a question",
                    wait_node("timer", question="Now?"),
                ),
            ]
        ],
        *question_vectors(),
    ]


QUESTION = 'Ship the <b>draft</b> to "Acme" now?\nIt costs $5 & 3 pages — café.'
CHOICES = ["ship", "hold", "ask legal"]


def question_vectors() -> list[dict[str, Json]]:
    """A human_input wait carries the question a person reads, and its choices."""
    asking = definition(
        "use",
        ask={
            "kind": "human_input",
            "wait": {
                "expires_in_ms": EXPIRES,
                "on_expiry": "fail",
                "question": QUESTION,
                "choices": CHOICES,
            },
        },
        use=node("node:ask", ("ask",), json_out({"type": "string"})),
    )
    enum = canonical({"enum": CHOICES, "type": "string"})
    asked = wait_of(
        openedAtMs="${t0}",
        expiresAtMs=f"${{t0+{EXPIRES}}}",
        schemaJson=enum,
        question=QUESTION,
        choices=CHOICES,
    )
    plain = wait_of(question=None, choices=None)
    return [
        vector(
            "wait/the-question-travels",
            "A human_input wait's question (plain text, kept byte for byte: markup, quotes, "
            "a line break, an ampersand and non-ASCII are not interpreted) and its "
            "choices come back from ListWaits, GetWait and SatisfyWait; with choices and no "
            "schema the "
            "schema is a string enum of the choices, so an answer outside them is refused "
            "(WAIT_PAYLOAD_INVALID) and a choice satisfies the wait.",
            [
                teach(),
                start(asking),
                list_waits([asked], captures={"wait": "waits.0.waitId"}),
                step(
                    AGENT,
                    "WaitService",
                    "GetWait",
                    {"waitId": "${wait}"},
                    response={"wait": {**asked, "waitId": "${wait}"}},
                ),
                satisfy('"maybe"', error=(INVALID, "WAIT_PAYLOAD_INVALID")),
                satisfy(
                    '"ask legal"',
                    request_id="${ns}-s2",
                    response={
                        "wait": {
                            "waitId": "${wait}",
                            "state": "WAIT_STATE_SATISFIED",
                            "payloadJson": '"ask legal"',
                            "question": QUESTION,
                            "choices": CHOICES,
                        },
                        "replayed": None,
                    },
                ),
            ],
            WAITS,
        ),
        vector(
            "wait/a-wait-without-a-question-has-none",
            "A wait whose definition asks no question has an empty question and no choices.",
            [teach(), start(waiting()), list_waits([plain])],
            WAITS,
        ),
    ]


# --- assessments ----------------------------------------------------------------------

VERIFY, ACCEPT = "ASSESSMENT_KIND_VERIFICATION", "ASSESSMENT_KIND_ACCEPTANCE"
PASS, FAIL = "ASSESSMENT_VERDICT_PASS", "ASSESSMENT_VERDICT_FAIL"
FINDINGS = '{"must":"met"}'


def assess(
    kind: str,
    verdict: str,
    *,
    principal: str = "alice",
    subject: str = "${subj}",
    request_id: str = "${ns}-as",
    run: str = "${run}",
    findings: str = FINDINGS,
    response: Json = None,
    error: tuple[str, str] | None = None,
    captures: dict[str, str] | None = None,
) -> dict[str, Json]:
    """RecordAssessment."""
    request = {"requestId": request_id, "runId": run, "subjectDigest": subject}
    if kind:
        request["kind"] = kind
    if verdict:
        request["verdict"] = verdict
    if findings:
        request["findingsJson"] = findings
    if error:
        return step(principal, "AssessmentService", "RecordAssessment", request, error=error)
    return step(
        principal,
        "AssessmentService",
        "RecordAssessment",
        request,
        response=response or {"assessment": {"current": True}, "replayed": None},
        captures=captures,
    )


def acceptance(response: Json, *, captures: dict[str, str] | None = None) -> dict[str, Json]:
    """GetAcceptance of ``${run}``."""
    return step(
        "alice",
        "AssessmentService",
        "GetAcceptance",
        {"runId": "${run}"},
        response=response,
        captures=captures,
    )


def list_assessments(expected: list[Json] | None) -> dict[str, Json]:
    """ListAssessments of ``${run}``."""
    return step(
        AGENT,
        "AssessmentService",
        "ListAssessments",
        {"runId": "${run}"},
        response={"assessments": expected},
    )


def completed(contract_id: str | None = None) -> list[Json]:
    """A completed one-node run (result {"answer":42}); its subject is ``${subj}``."""
    fields = {"contractId": contract_id} if contract_id else {}
    return [
        teach(),
        start(SINGLE, **fields),
        claim_as("att"),
        complete("att", '{"answer":42}'),
        acceptance(
            {"accepted": None, "subjectDigest": "<any>", "current": None},
            captures={"subj": "subjectDigest"},
        ),
    ]


def assessments_vectors() -> list[dict[str, Json]]:
    verified = {
        "assessmentId": "<any>",
        "runId": "${run}",
        "kind": VERIFY,
        "verdict": PASS,
        "subjectDigest": "${subj}",
        "contractId": CID,
        "findingsJson": FINDINGS,
        "assessedBy": AGENT,
        "assessedAtMs": "${t0}",
        "current": True,
    }
    governed = definition("a", a=node(output=json_out({"type": "object"})))
    changed = node(output=json_out({"type": "object"}))
    changed["input"] = {**changed["input"], "template": "v2"}  # type: ignore[dict-item]
    governed_v2 = definition("a", a=changed)
    return [
        vector(
            "assess/an-unfinished-run-cannot-be-assessed",
            "Before completion GetAcceptance has no subject and RecordAssessment fails with "
            "RUN_NOT_COMPLETED; nothing is recorded.",
            [
                teach(),
                start(SINGLE),
                acceptance({"accepted": None, "subjectDigest": None, "current": None}),
                assess(
                    VERIFY,
                    PASS,
                    principal=AGENT,
                    subject=ZERO_DIGEST,
                    error=(FAILED, "RUN_NOT_COMPLETED"),
                ),
                list_assessments(None),
            ],
            ASSESS,
        ),
        vector(
            "assess/verification-is-recorded-against-the-contract",
            "After completion an agent records a verification of the current subject; it "
            "is current, bound to the run's contract, and is not acceptance.",
            [
                create_contract(),
                *completed(CID),
                assess(
                    VERIFY,
                    PASS,
                    principal=AGENT,
                    response={"assessment": verified, "replayed": None},
                    captures={"asm": "assessment.assessmentId"},
                ),
                acceptance(
                    {
                        "accepted": None,
                        "subjectDigest": "${subj}",
                        "current": [{**verified, "assessmentId": "${asm}"}],
                    }
                ),
                list_assessments([{"assessmentId": "${asm}", "current": True}]),
            ],
            ASSESS,
        ),
        vector(
            "assess/acceptance-needs-a-human",
            "An agent granted everything cannot accept (HUMAN_REQUIRED), an agent without "
            "the grant neither (ACTION_NOT_GRANTED); a human's passing acceptance makes the "
            "run accepted.",
            [
                *completed(),
                assess(ACCEPT, PASS, principal="rogue", error=(DENIED, "HUMAN_REQUIRED")),
                assess(ACCEPT, PASS, principal=AGENT, error=(DENIED, "ACTION_NOT_GRANTED")),
                acceptance({"accepted": None, "current": None}),
                assess(
                    ACCEPT,
                    PASS,
                    response={
                        "assessment": {
                            "kind": ACCEPT,
                            "verdict": PASS,
                            "assessedBy": "alice",
                            "contractId": None,
                            "current": True,
                        }
                    },
                ),
                acceptance(
                    {"accepted": True, "subjectDigest": "${subj}", "current": [{"kind": ACCEPT}]}
                ),
            ],
            ASSESS,
        ),
        vector(
            "assess/repeated-request-replays",
            "The same RecordAssessment request again returns the original assessment with "
            "replayed = true and records nothing new.",
            [
                *completed(),
                assess(ACCEPT, PASS, captures={"asm": "assessment.assessmentId"}),
                assess(
                    ACCEPT,
                    PASS,
                    response={"assessment": {"assessmentId": "${asm}"}, "replayed": True},
                ),
                list_assessments([{"assessmentId": "${asm}"}]),
            ],
            ASSESS,
        ),
        vector(
            "assess/a-newer-failed-check-withdraws-acceptance",
            "A verification that fails after a passing acceptance withdraws acceptance; all "
            "three assessments stay current.",
            [
                *completed(),
                assess(VERIFY, PASS, principal=AGENT, request_id="${ns}-as1"),
                assess(ACCEPT, PASS, request_id="${ns}-as2"),
                acceptance({"accepted": True}),
                assess(VERIFY, FAIL, principal=AGENT, request_id="${ns}-as3"),
                acceptance(
                    {
                        "accepted": None,
                        "current": [
                            {"verdict": PASS, "kind": VERIFY},
                            {"verdict": PASS, "kind": ACCEPT},
                            {"verdict": FAIL, "kind": VERIFY},
                        ],
                    }
                ),
            ],
            ASSESS,
        ),
        vector(
            "assess/a-subject-other-than-the-current-is-refused",
            "RecordAssessment of a subject digest that is not the run's current one fails "
            "with SUBJECT_CHANGED.",
            [
                *completed(),
                assess(ACCEPT, PASS, subject=OTHER_DIGEST, error=(FAILED, "SUBJECT_CHANGED")),
                acceptance({"accepted": None, "current": None}),
            ],
            ASSESS,
        ),
        vector(
            "assess/a-new-revision-changes-the-subject",
            "A governed run is accepted; activating a new revision of its ref changes the "
            "subject: acceptance is withdrawn, the old assessment is no longer current and "
            "assessing the old subject fails with SUBJECT_CHANGED.",
            [
                teach(),
                *registered(text=canonical(governed)),
                step(
                    AGENT,
                    "RunService",
                    "StartRun",
                    {"requestId": "${ns}-gov", "ref": REF, "inputJson": "null"},
                    response={"created": True},
                    captures={"run": "run.runId"},
                ),
                claim_as("att"),
                complete("att", '{"answer":42}'),
                acceptance({"subjectDigest": "<any>"}, captures={"subj": "subjectDigest"}),
                assess(ACCEPT, PASS),
                acceptance({"accepted": True}),
                execute(AGENT, "${ns}-req-p2", propose_cmd("p2", 1, canonical(governed_v2))),
                review(activate_cmd("p2", "${ns}-ap-act"), "md_act"),
                approve("${ns}-ap-act", "md_act"),
                execute("alice", "${ns}-req-act", activate_cmd("p2", "${ns}-ap-act")),
                acceptance({"accepted": None, "subjectDigest": "<any>", "current": None}),
                list_assessments([{"subjectDigest": "${subj}", "current": None}]),
                assess(ACCEPT, PASS, request_id="${ns}-as2", error=(FAILED, "SUBJECT_CHANGED")),
            ],
            [*ASSESS, "aiws.engine.v1.RegistryService"],
        ),
        vector(
            "assess/bad-requests-are-refused",
            "RecordAssessment refuses a missing kind or verdict (ENUM_INVALID), a malformed "
            "digest (DIGEST_INVALID), findings outside the document profile "
            "(DOCUMENT_NUMBER_FORBIDDEN) and an unknown run (RUN_NOT_FOUND).",
            [
                *completed(),
                assess("", PASS, error=(INVALID, "ENUM_INVALID")),
                assess(ACCEPT, "", error=(INVALID, "ENUM_INVALID")),
                assess(ACCEPT, PASS, subject="sha256:xyz", error=(INVALID, "DIGEST_INVALID")),
                assess(
                    ACCEPT,
                    PASS,
                    findings='{"a": 1e3}',
                    error=(INVALID, "DOCUMENT_NUMBER_FORBIDDEN"),
                ),
                assess(ACCEPT, PASS, run="run_${ns}", error=(NOT_FOUND, "RUN_NOT_FOUND")),
                acceptance({"accepted": None, "current": None}),
            ],
            ASSESS,
        ),
    ]


# --- handoffs -------------------------------------------------------------------------

DRAFT = {"draft": "text"}
DRAFT_TEXT = canonical(DRAFT)
HANDOFF_CHAIN = definition(
    "b", a=node(output=json_out({"type": "object"})), b=node("node:a", ("a",), JSON_OBJECT)
)


def offer(
    *,
    uid: str = "a",
    to: str = "agent2",
    note: str = "yours now",
    request_id: str = "${ns}-h1",
    run: str = "${run}",
    principal: str = AGENT,
    response: Json = None,
    error: tuple[str, str] | None = None,
) -> dict[str, Json]:
    """CreateHandoff; captures the delivery id as ``${dlv}``."""
    request = {
        "requestId": request_id,
        "runId": run,
        "nodeUid": uid,
        "toPrincipalId": to,
        "note": note,
    }
    if error:
        return step(principal, "HandoffService", "CreateHandoff", request, error=error)
    return step(
        principal,
        "HandoffService",
        "CreateHandoff",
        request,
        response=response or {"handoff": {"state": "HANDOFF_STATE_OFFERED"}},
        captures={"dlv": "handoff.deliveryId"},
    )


def acknowledge(
    principal: str = "agent2",
    *,
    delivery: str = "${dlv}",
    response: Json = None,
    error: tuple[str, str] | None = None,
    **clock_args: Any,
) -> dict[str, Json]:
    """AcknowledgeHandoff."""
    request = {"deliveryId": delivery}
    if error:
        return step(
            principal, "HandoffService", "AcknowledgeHandoff", request, error=error, **clock_args
        )
    return step(
        principal,
        "HandoffService",
        "AcknowledgeHandoff",
        request,
        response=response or {"handoff": {"state": "HANDOFF_STATE_ACKNOWLEDGED"}},
        **clock_args,
    )


def drafted() -> list[Json]:
    """Start a -> b and finish a (result {"draft":"text"}, operation ``${op}``)."""
    return [
        teach(),
        start(HANDOFF_CHAIN),
        claim_as("att", op="op"),
        complete("att", DRAFT_TEXT),
    ]


def handoffs_vectors() -> list[dict[str, Json]]:
    offered = {
        "deliveryId": "<any>",
        "runId": "${run}",
        "nodeUid": "a",
        "operationId": "${op}",
        "fromPrincipalId": AGENT,
        "toPrincipalId": "agent2",
        "outputsDigest": digest_of(DRAFT),
        "note": "yours now",
        "state": "HANDOFF_STATE_OFFERED",
        "createdAtMs": "${t0}",
        "acknowledgedAtMs": None,
        "ref": None,
        "revision": None,
        "definitionDigest": "${dd}",
    }
    return [
        vector(
            "handoff/a-finished-nodes-outputs-are-offered",
            "CreateHandoff of a finished node records an offer from the caller to the "
            "receiver with the digest of the node's result, the node's operation id and "
            "the work it comes from (an ad hoc run: no ref, revision 0, the run's "
            "definition digest); GetHandoff reads it back.",
            [
                *drafted(),
                get_run({"runId": "${run}"}, captures={"dd": "run.definitionDigest"}),
                offer(response={"handoff": offered, "replayed": None}),
                step(
                    AGENT,
                    "HandoffService",
                    "GetHandoff",
                    {"deliveryId": "${dlv}"},
                    response={"handoff": {**offered, "deliveryId": "${dlv}"}},
                ),
            ],
            HANDOFFS,
        ),
        vector(
            "handoff/repeated-request-replays-and-a-changed-one-is-refused",
            "The same CreateHandoff request again replays the offer; the same request id "
            "with another note fails with REQUEST_ID_REUSED.",
            [
                *drafted(),
                offer(),
                offer(response={"handoff": {"deliveryId": "${dlv}"}, "replayed": True}),
                offer(note="another note", error=(EXISTS, "REQUEST_ID_REUSED")),
            ],
            HANDOFFS,
        ),
        vector(
            "handoff/the-receiver-acknowledges-once",
            "The receiver acknowledges the handoff; a second acknowledgement fails with "
            "HANDOFF_ALREADY_ACKNOWLEDGED and leaves the first time in place.",
            [
                *drafted(),
                offer(),
                acknowledge(
                    response={
                        "handoff": {
                            "state": "HANDOFF_STATE_ACKNOWLEDGED",
                            "acknowledgedAtMs": "${t0}",
                        }
                    }
                ),
                acknowledge(error=(FAILED, "HANDOFF_ALREADY_ACKNOWLEDGED"), advance_ms=5),
                step(
                    AGENT,
                    "HandoffService",
                    "GetHandoff",
                    {"deliveryId": "${dlv}"},
                    response={
                        "handoff": {
                            "state": "HANDOFF_STATE_ACKNOWLEDGED",
                            "acknowledgedAtMs": "${t0}",
                        }
                    },
                ),
            ],
            HANDOFFS,
        ),
        vector(
            "handoff/only-the-receiver-may-acknowledge",
            "The sender and a third principal (a human with every grant) cannot "
            "acknowledge: HANDOFF_NOT_ADDRESSED; the handoff stays offered.",
            [
                *drafted(),
                offer(),
                acknowledge(AGENT, error=(DENIED, "HANDOFF_NOT_ADDRESSED")),
                acknowledge("bob", error=(DENIED, "HANDOFF_NOT_ADDRESSED")),
                step(
                    AGENT,
                    "HandoffService",
                    "GetHandoff",
                    {"deliveryId": "${dlv}"},
                    response={
                        "handoff": {"state": "HANDOFF_STATE_OFFERED", "acknowledgedAtMs": None}
                    },
                ),
            ],
            HANDOFFS,
        ),
        vector(
            "handoff/an-unfinished-node-cannot-be-handed-off",
            "CreateHandoff of a node that is not DONE fails with NODE_NOT_DONE.",
            [
                teach(),
                start(HANDOFF_CHAIN),
                offer(error=(FAILED, "NODE_NOT_DONE")),
                claim_as("att"),
                offer(error=(FAILED, "NODE_NOT_DONE")),
            ],
            HANDOFFS,
        ),
        vector(
            "handoff/names-the-revision-of-the-work-it-hands-off",
            "A handoff of a governed run's node names the run's ref, the registry revision "
            "the node ran under and that revision's definition digest.",
            [
                teach(),
                *registered(text=canonical(HANDOFF_CHAIN), tag="h"),
                step(
                    AGENT,
                    "RunService",
                    "StartRun",
                    {"requestId": "${ns}-gov", "ref": REF},
                    response={"created": True, "run": {"runId": "<any>", "revision": "1"}},
                    captures={"run": "run.runId", "dd": "run.definitionDigest"},
                ),
                claim_as("att", op="op"),
                complete("att", DRAFT_TEXT),
                offer(
                    response={
                        "handoff": {
                            "runId": "${run}",
                            "operationId": "${op}",
                            "ref": REF,
                            "revision": "1",
                            "definitionDigest": "${dd}",
                        }
                    }
                ),
            ],
            [*HANDOFFS, "aiws.engine.v1.RegistryService", "aiws.engine.v1.ApprovalService"],
        ),
        vector(
            "handoff/bad-offers-are-refused",
            "CreateHandoff refuses an unknown node (NODE_NOT_FOUND), a handoff to oneself "
            "(ATTRIBUTION_MISMATCH), a malformed receiver (IDENTIFIER_INVALID) and an unknown "
            "run (RUN_NOT_FOUND); unknown delivery ids are HANDOFF_NOT_FOUND.",
            [
                *drafted(),
                offer(uid="zzz", error=(NOT_FOUND, "NODE_NOT_FOUND")),
                offer(to=AGENT, error=(INVALID, "ATTRIBUTION_MISMATCH")),
                offer(to="not a principal", error=(INVALID, "IDENTIFIER_INVALID")),
                offer(run="run_${ns}", error=(NOT_FOUND, "RUN_NOT_FOUND")),
                acknowledge(delivery="dlv_${ns}", error=(NOT_FOUND, "HANDOFF_NOT_FOUND")),
                step(
                    AGENT,
                    "HandoffService",
                    "GetHandoff",
                    {"deliveryId": "dlv_${ns}"},
                    error=(NOT_FOUND, "HANDOFF_NOT_FOUND"),
                ),
            ],
            HANDOFFS,
        ),
    ]


AREAS = {
    "contracts": (
        "Contracts and spending: immutable terms, idempotent creation, canonical budgets, "
        "exact spend, budget, deadline and spending-cap refusals of dispatch.",
        lambda: contracts_vectors() + spending_vectors(),
    ),
    "reconciliation": (
        "Uncertain effects: blocked nodes, review material and digests, human approvals, "
        "APPLIED and NOT_APPLIED decisions, mismatched, consumed and expired approvals.",
        reconciliation_vectors,
    ),
    "waits": (
        "Waits: human input, timers and authorizations, payload schemas, replay, expiry "
        "never early, defaults and failures on expiry.",
        waits_vectors,
    ),
    "assessments": (
        "Assessments and acceptance: only after completion, human acceptance, current "
        "subject digests, withdrawal when the subject changes.",
        assessments_vectors,
    ),
    "handoffs": (
        "Handoffs: offers of finished outputs, replay, acknowledgement once and only by the "
        "receiver.",
        handoffs_vectors,
    ),
}
