"""ContractService: contracts, their spend and principals' spending."""

from __future__ import annotations

import grpc

from aiws.engine.v1 import contract_pb2, contract_pb2_grpc
from praxis.core import money, values
from praxis.rpc.auth import principal
from praxis.rpc.errors import unwrap
from praxis.store.execution.contracts import ContractStore
from praxis.store.execution.rows.contracts import ContractView


def contract_to_proto(view: ContractView) -> contract_pb2.Contract:
    """A contract with its spend and reservations."""
    contract = view.contract
    return contract_pb2.Contract(
        contract_id=contract.contract_id,
        work_order_id=contract.work_order_id,
        criteria_json=values.canonical_json(contract.criteria),
        deadline_ms=contract.deadline_ms,
        budget_microcredits=money.text(contract.budget),
        profile=contract.profile,
        digest=contract.digest(),
        created_by=contract.created_by,
        created_at_ms=contract.created_at_ms,
        spent_microcredits=money.text(view.spent),
        remaining_microcredits=money.text(view.remaining),
        reserved_microcredits=money.text(view.reserved),
    )


class ContractServicer(contract_pb2_grpc.ContractServiceServicer):
    """ContractService over a :class:`ContractStore`."""

    def __init__(self, store: ContractStore) -> None:
        self.store = store

    def CreateContract(  # gRPC method name
        self, request: contract_pb2.CreateContractRequest, context: grpc.ServicerContext
    ) -> contract_pb2.CreateContractResponse:
        view, replayed = unwrap(
            context,
            self.store.create(
                principal(),
                request.contract_id,
                request.work_order_id,
                request.criteria_json,
                request.deadline_ms,
                request.budget_microcredits,
                request.profile,
            ),
        )
        return contract_pb2.CreateContractResponse(
            contract=contract_to_proto(view), replayed=replayed
        )

    def GetContract(
        self, request: contract_pb2.GetContractRequest, context: grpc.ServicerContext
    ) -> contract_pb2.GetContractResponse:
        view = unwrap(context, self.store.get(principal(), request.contract_id))
        return contract_pb2.GetContractResponse(contract=contract_to_proto(view))

    def GetSpending(
        self, request: contract_pb2.GetSpendingRequest, context: grpc.ServicerContext
    ) -> contract_pb2.GetSpendingResponse:
        found = unwrap(context, self.store.spending(principal(), request.principal_id))
        return contract_pb2.GetSpendingResponse(
            principal_id=found.principal_id,
            spent_microcredits=money.text(found.spent),
            cap_microcredits="" if found.cap is None else money.text(found.cap),
            reserved_microcredits=money.text(found.reserved),
        )

    def ListContracts(
        self, request: contract_pb2.ListContractsRequest, context: grpc.ServicerContext
    ) -> contract_pb2.ListContractsResponse:
        views, token = unwrap(
            context,
            self.store.list(
                principal(), request.work_order_id, request.page_size, request.page_token
            ),
        )
        return contract_pb2.ListContractsResponse(
            contracts=[contract_to_proto(view) for view in views], next_page_token=token
        )
