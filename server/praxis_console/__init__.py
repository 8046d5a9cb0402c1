"""The Praxis web console: a client of the public gRPC API, served as server-rendered
pages with a small script for live updates (``praxis console``)."""
