"""Principals in the database: tokens, grants, revocation and rotation (PrincipalStore)."""
