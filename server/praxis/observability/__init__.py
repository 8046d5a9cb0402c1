"""Metrics, traces and logs: the counting hooks and exporters, no storage and no gRPC."""
