"""The workflow runtime: runs, their nodes and attempts, the worker task protocol,
events, reservations, traces (RunStore, TaskStore), and the runtime context the slices
on it share (RuntimeContext).
"""
