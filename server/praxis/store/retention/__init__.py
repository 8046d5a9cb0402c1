"""Retention and archival: finished runs past their keep written to archive files and
deleted in bounded batches, a tombstone left for GetRun (ArchiveStore)."""
