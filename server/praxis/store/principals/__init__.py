"""Principals in the database: tokens, grants, revocation and rotation.

The authority's cached lookups (lookups.py) apart from the administration
(PrincipalStore, store.py) and the start-up import and replay (startup.py); the SQL in
rows.py."""
