"""Database infrastructure every slice shares: connections and group commit, the
dialect, statements, locks, the writer turn, files, paging, the migrations runner.
"""
