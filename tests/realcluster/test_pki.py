"""The fixture's certificates without the real programs (runs in the default suite): a TLS
server on the serving pair and a client on the admin pair complete a mutual handshake under
strict X.509 verification (Python 3.13's default), for 127.0.0.1 and localhost, and the admin is in
system:masters."""

from __future__ import annotations

import socket
import ssl
import threading
from pathlib import Path
from typing import cast

import pytest
from cryptography import x509
from cryptography.x509.oid import NameOID

from tests.realcluster.pki import make_pki


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
def test_mutual_tls_with_the_fixture_certificates(tmp_path: Path, host: str) -> None:
    pki = make_pki(tmp_path)
    server = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH, cafile=str(pki.ca))
    server.load_cert_chain(pki.serving_cert, pki.serving_key)
    server.verify_mode = ssl.CERT_REQUIRED
    client = ssl.create_default_context(cafile=str(pki.ca))
    client.load_cert_chain(pki.client_cert, pki.client_key)
    for context in (server, client):  # Python 3.13's default; asked for here on any version
        context.verify_flags |= ssl.VERIFY_X509_STRICT
    seen: list[str] = []
    with socket.create_server(("127.0.0.1", 0)) as listener:
        thread = threading.Thread(target=_serve_one, args=(listener, server, seen))
        thread.start()
        with (
            socket.create_connection(listener.getsockname()) as raw,
            client.wrap_socket(raw, server_hostname=host) as tls,
        ):
            assert tls.recv(64) == b"hello"
        thread.join(10)
    assert seen == ["taugen-admin"]
    admin = x509.load_pem_x509_certificate(pki.client_cert.read_bytes())
    assert [a.value for a in admin.subject.get_attributes_for_oid(NameOID.ORGANIZATION_NAME)] == [
        "system:masters"
    ]


def _serve_one(listener: socket.socket, context: ssl.SSLContext, seen: list[str]) -> None:
    raw, _ = listener.accept()
    with context.wrap_socket(raw, server_side=True) as tls:
        subject = cast(tuple[tuple[tuple[str, str], ...], ...], (tls.getpeercert() or {}).get("subject", ()))
        seen += [value for rdn in subject for key, value in rdn if key == "commonName"]
        tls.sendall(b"hello")
