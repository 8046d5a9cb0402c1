"""Who may act: the pluggable authority protocol and its built-in principals file."""
