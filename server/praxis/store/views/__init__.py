"""Read models across slices, read-only: the inbox and the gauges."""
