"""Praxis Python client helpers."""
