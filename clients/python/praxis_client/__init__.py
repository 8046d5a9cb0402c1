"""Praxis Python client: typed stubs for every service, a worker runtime and helpers.

Example::

    from praxis_client import connect
    client = connect("127.0.0.1:50051", token)
    epochs = client.registry.GetEpochs(registry_pb2.GetEpochsRequest(work_order_id="wo-1"))

The service names of :class:`Client` (``registry``, ``approvals``, ``admin``, ``runs``,
``tasks``, ``events``, ``contracts``, ``reconciliations``, ``waits``, ``assessments``,
``handoffs``, ``test_clock``) are the same in every Praxis client (docs/workers.md).
"""

from praxis_client.client import SERVICE_NAMES, Client, connect
from praxis_client.errors import CallError, error_details
from praxis_client.helpers import (
    RunFailed,
    from_json,
    result_of,
    review_approve_execute,
    run_and_wait,
    to_json,
)
from praxis_client.values import (
    canonical_decimal,
    from_epoch_ms,
    parse_decimal,
    to_epoch_ms,
)
from praxis_client.worker import (
    Applied,
    NotApplied,
    PermanentError,
    TaskContext,
    Uncertain,
    Worker,
    WorkerError,
)

__version__ = "0.1.0"

__all__ = [
    "SERVICE_NAMES",
    "Applied",
    "CallError",
    "Client",
    "NotApplied",
    "PermanentError",
    "RunFailed",
    "TaskContext",
    "Uncertain",
    "Worker",
    "WorkerError",
    "__version__",
    "canonical_decimal",
    "connect",
    "error_details",
    "from_epoch_ms",
    "from_json",
    "parse_decimal",
    "result_of",
    "review_approve_execute",
    "run_and_wait",
    "to_epoch_ms",
    "to_json",
]
