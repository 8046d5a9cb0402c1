"""The pure core: decisions without I/O, clock reads, randomness, SQL or gRPC.

Everything here is deterministic: the same state, command and `now` give the same
outcome. The store adds transactions; the RPC layer adds the wire.
"""
