"""The registry: heads, revisions, proposals, review, approvals, receipts and history
(RegistryStore: the commands; ApprovalStore: approvals; RegistryReadStore: the reads).
"""
