"""Work-order controls: installation keys, epochs, pause/resume/cancel, holds (AdminStore)."""
