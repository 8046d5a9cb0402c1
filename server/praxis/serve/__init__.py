"""The `praxis serve` process: command line, config file, TLS, processes, start-up,
and the metrics endpoint.
"""
