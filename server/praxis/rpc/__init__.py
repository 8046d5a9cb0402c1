"""gRPC servicers: proto <-> core conversion; the one place errors become statuses."""
