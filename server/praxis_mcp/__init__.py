"""``praxis mcp``: a Model Context Protocol server through which an LLM agent takes part
in Praxis without a custom worker (docs/agents.md).

It is a client of the public gRPC API like the CLI and the console: it acts with one
agent principal's token, and every refusal is the server's. :mod:`praxis_mcp.actions`
holds the calls, :mod:`praxis_mcp.views` the bounded shapes they answer with,
:mod:`praxis_mcp.server` the MCP tools and transports.
"""
