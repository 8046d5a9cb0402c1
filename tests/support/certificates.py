"""Test certificates made with ``openssl``: a CA, server and client certificates."""

from __future__ import annotations

import subprocess
from pathlib import Path


def _openssl(*args: str) -> None:
    subprocess.run(["openssl", *args], check=True, capture_output=True)


def make_ca(directory: Path) -> tuple[Path, Path]:
    """A self-signed CA valid for a day: its certificate and key (PEM)."""
    ca = (directory / "ca.pem", directory / "ca.key")
    _openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
             "-nodes", "-days", "1", "-subj", "/CN=praxis-test-ca",
             "-keyout", str(ca[1]), "-out", str(ca[0]))  # fmt: skip
    return ca


def make_certificate(
    directory: Path, name: str, ca: tuple[Path, Path], server: bool
) -> tuple[Path, Path]:
    """A certificate signed by ``ca`` (for 127.0.0.1 and localhost when ``server``, for
    client authentication otherwise): its certificate and key (PEM)."""
    key, csr, pem = (directory / f"{name}.{ext}" for ext in ("key", "csr", "pem"))
    _openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
             "-subj", f"/CN={name}", "-keyout", str(key), "-out", str(csr))  # fmt: skip
    extensions = directory / f"{name}.ext"
    extensions.write_text(
        "subjectAltName=IP:127.0.0.1,DNS:localhost\n" if server else "extendedKeyUsage=clientAuth\n"
    )
    _openssl("x509", "-req", "-in", str(csr), "-CA", str(ca[0]), "-CAkey", str(ca[1]),
             "-CAcreateserial", "-days", "1", "-out", str(pem),
             "-extfile", str(extensions))  # fmt: skip
    return pem, key
