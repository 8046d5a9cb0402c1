"""Praxis server."""
