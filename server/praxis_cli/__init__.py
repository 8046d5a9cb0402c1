"""``praxis``'s remote commands: a client of the public gRPC API and nothing else.

It imports the generated stubs and :mod:`praxis_client`, never the server's ``store`` or
``core``: the same authority applies to it as to any other client.
"""
