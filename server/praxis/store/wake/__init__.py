"""Wake-ups: the in-process hub of topics, and its broadcast to other processes (a
Unix socket directory on one machine, LISTEN/NOTIFY on PostgreSQL).
"""
