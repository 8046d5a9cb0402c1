"""The registry: heads, revisions, proposals, review, approvals, receipts and
history (RegistryStore).
"""
