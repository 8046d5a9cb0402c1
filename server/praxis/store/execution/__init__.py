"""The execution model: contracts and budgets, effect reconciliation, waits,
assessments, handoffs and run segments, on the runtime's unit of work.
"""
