"""Webhooks and replies: what a run pushes when it ends. The outbox's tables and rows,
the store the deliverer and operators use (Notifications), and its reactions to the
runtime's RunStarted and RunFinished (wired by ``praxis.app.reactions``).
"""
