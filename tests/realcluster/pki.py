"""The control plane's certificates (issue 31), made with `cryptography`: a CA, the API server's
serving certificate (127.0.0.1 and localhost only), an admin client certificate in
`system:masters`, and the service-account signing key. EC P-256 keys: fast to make."""

from __future__ import annotations

import datetime
import ipaddress
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

DAY = datetime.timedelta(days=1)


@dataclass(frozen=True)
class Pki:
    ca: Path
    serving_cert: Path
    serving_key: Path
    client_cert: Path
    client_key: Path
    service_account_key: Path  # the signing key (private)
    service_account_pub: Path  # what the API server verifies tokens with


def make_pki(folder: Path) -> Pki:
    folder.mkdir(parents=True, exist_ok=True)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = _certificate(_name("taugen-realcluster-ca"), ca_key, ca_key, None, ca=True)
    ca_path = _write(folder / "ca.crt", ca.public_bytes(serialization.Encoding.PEM))
    serving_key = ec.generate_private_key(ec.SECP256R1())
    names = [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
    serving = _certificate(_name("kube-apiserver"), serving_key, ca_key, ca, server=names)
    client_key = ec.generate_private_key(ec.SECP256R1())
    client = _certificate(_name("taugen-admin", "system:masters"), client_key, ca_key, ca)
    signing = ec.generate_private_key(ec.SECP256R1())
    public = signing.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return Pki(
        ca=ca_path,
        serving_cert=_write(folder / "apiserver.crt", serving.public_bytes(serialization.Encoding.PEM)),
        serving_key=_write(folder / "apiserver.key", _pem(serving_key)),
        client_cert=_write(folder / "admin.crt", client.public_bytes(serialization.Encoding.PEM)),
        client_key=_write(folder / "admin.key", _pem(client_key)),
        service_account_key=_write(folder / "sa.key", _pem(signing)),
        service_account_pub=_write(folder / "sa.pub", public),
    )


def _name(common: str, organization: str | None = None) -> x509.Name:
    parts = [x509.NameAttribute(NameOID.COMMON_NAME, common)]
    if organization:
        parts.append(x509.NameAttribute(NameOID.ORGANIZATION_NAME, organization))
    return x509.Name(parts)


def _certificate(
    subject: x509.Name,
    key: ec.EllipticCurvePrivateKey,
    signer: ec.EllipticCurvePrivateKey,
    issuer: x509.Certificate | None,
    *,
    ca: bool = False,
    server: list[x509.GeneralName] | None = None,
) -> x509.Certificate:
    now = datetime.datetime.now(datetime.UTC)
    usage = ExtendedKeyUsageOID.SERVER_AUTH if server else ExtendedKeyUsageOID.CLIENT_AUTH
    builder = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer.subject if issuer else subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - DAY)
        .not_valid_after(now + 30 * DAY)
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
        .add_extension(_key_usage(ca), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
    )
    if issuer is not None:  # Python 3.13's default VERIFY_X509_STRICT asks for the issuer's key id
        ski = issuer.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value
        aki = x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(ski)
        builder = builder.add_extension(aki, critical=False)
    if not ca:
        builder = builder.add_extension(x509.ExtendedKeyUsage([usage]), critical=False)
    if server:
        builder = builder.add_extension(x509.SubjectAlternativeName(server), critical=False)
    return builder.sign(signer, hashes.SHA256())


def _key_usage(ca: bool) -> x509.KeyUsage:
    return x509.KeyUsage(
        digital_signature=True,
        content_commitment=False,
        key_encipherment=False,
        data_encipherment=False,
        key_agreement=False,
        key_cert_sign=ca,
        crl_sign=ca,
        encipher_only=False,
        decipher_only=False,
    )


def _pem(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    path.chmod(0o600)
    return path
