"""Praxis Python client: generated stubs plus the helpers everyone would write by hand.

Example::

    from praxis_client import connect
    client = connect("127.0.0.1:50051", token)
    epochs = client.registry.GetEpochs(registry_pb2.GetEpochsRequest(work_order_id="wo-1"))
"""

from praxis_client.client import Client, connect
from praxis_client.errors import CallError, error_details
from praxis_client.values import (
    canonical_decimal,
    from_epoch_ms,
    parse_decimal,
    to_epoch_ms,
)

__all__ = [
    "CallError",
    "Client",
    "canonical_decimal",
    "connect",
    "error_details",
    "from_epoch_ms",
    "parse_decimal",
    "to_epoch_ms",
]
