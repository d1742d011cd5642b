"""HTTPS on the venue's network with a certificate made on the laptop.

A tablet's browser runs the offline queue's service worker only in a secure context, and a
laptop on the venue's Wi-Fi has no public name a public authority would certify. So the desk is
its own small certificate authority: made once in the data folder (``tls/``), installed once on
each tablet from the ``/connect/`` page, and used to sign the laptop's server certificate, which
names the laptop's current addresses and host names and is made again whenever they change (a
tablet trusts the authority, so a new server certificate needs nothing on the tablets).

What keeps it safe:
- The authority's private key is written only into the data folder, readable by its owner alone
  (0600, in a 0700 folder; put right on every start if a copy loosened it). Nothing serves it:
  the app serves only the authority's certificate, the public half.
- The authority is name-constrained (RFC 5280 4.2.1.10, marked critical): it can vouch only for
  private, loopback and link-local addresses, ``localhost``, ``*.local`` and the laptop's host
  name. Even if its key leaked, a tablet that trusts it would refuse a certificate it signed for
  any public site. Names and addresses outside that set are left out of the server certificate
  (a chain with one name outside the constraints is refused whole).
- It may sign no further authority (path length 0).
"""

import contextlib
import datetime
import ipaddress
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from operations import network

FOLDER_NAME = "tls"
CA_CERT = "ca.crt"
CA_KEY = "ca.key"
SERVER_CERT = "server.crt"
SERVER_KEY = "server.key"

ORGANISATION = "Судейский стол «Берсерк. Герои»"
# Long enough that a tablet installs it once for years of events from the same data folder.
CA_DAYS = 10 * 365
# Under the 825 days Apple's devices accept for any server certificate, and under the 398 days
# browsers accept from public authorities, so no platform's limit is in question.
SERVER_DAYS = 397
# A server certificate this close to its end is made again at the next start.
RENEW_DAYS = 30
# A tablet whose clock is behind the laptop's still accepts a certificate made just now.
BACKDATE = datetime.timedelta(days=1)

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

# What the authority may vouch for: the addresses a venue's network, a phone's hotspot or the
# laptop itself uses, never a public one.
PERMITTED_NETWORKS: tuple[IPNetwork, ...] = tuple(
    ipaddress.ip_network(text)
    for text in (
        "10.0.0.0/8",
        "172.16.0.0/12",
        "192.168.0.0/16",
        "127.0.0.0/8",
        "169.254.0.0/16",
        "::1/128",
        "fc00::/7",
        "fe80::/10",
    )
)
# Names that never belong to a public site: the machine itself and multicast DNS names.
PERMITTED_DOMAINS = ("localhost", "local")

_LABEL = re.compile(r"^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$")


@dataclass(frozen=True)
class ServerCertificate:
    """The server certificate's files, what it names, and whether this call made it."""

    certfile: Path
    keyfile: Path
    cafile: Path
    addresses: tuple[str, ...]
    names: tuple[str, ...]
    issued: bool
    # Addresses or names of this machine no tablet can be vouched for (public ones).
    left_out: tuple[str, ...]


def folder_for(data_dir: Path) -> Path:
    return Path(data_dir) / FOLDER_NAME


def ca_certificate_path(folder: Path) -> Path:
    return folder / CA_CERT


def read_ca_certificate(folder: Path) -> x509.Certificate | None:
    """The authority's certificate, or None while none was made (``serve`` makes it)."""
    try:
        return x509.load_pem_x509_certificate((folder / CA_CERT).read_bytes())
    except (OSError, ValueError):
        return None


def fingerprint(certificate: x509.Certificate) -> str:
    """SHA-256 of the certificate as tablets show it (iPad: «Подробнее», Android: the details)."""
    digest = certificate.fingerprint(hashes.SHA256()).hex().upper()
    return ":".join(digest[i : i + 2] for i in range(0, len(digest), 2))


def der(certificate: x509.Certificate) -> bytes:
    return certificate.public_bytes(serialization.Encoding.DER)


def valid_host_name(name: str) -> bool:
    """Whether ``name`` can stand in a certificate as a DNS name (letters, digits, hyphens)."""
    labels = name.lower().rstrip(".").split(".")
    return bool(name) and len(name) <= 253 and all(_LABEL.match(label) for label in labels)


def _key_usage(*, signs_certificates: bool) -> x509.KeyUsage:
    """What a desk key may do: sign (the TLS handshake), and for the authority's key also sign
    certificates and revocation lists."""
    return x509.KeyUsage(
        digital_signature=True,
        content_commitment=False,
        key_encipherment=False,
        data_encipherment=False,
        key_agreement=False,
        key_cert_sign=signs_certificates,
        crl_sign=signs_certificates,
        encipher_only=False,
        decipher_only=False,
    )


def certificate_authority(
    folder: Path, *, host_name: str = "", now: datetime.datetime | None = None
) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    """The data folder's authority, made the first time (``host_name`` joins its permitted
    names then); later calls read it back and put its key's permissions right."""
    _private_folder(folder)
    cert_path, key_path = folder / CA_CERT, folder / CA_KEY
    if key_path.exists() and cert_path.exists():
        key = serialization.load_pem_private_key(key_path.read_bytes(), password=None)
        certificate = x509.load_pem_x509_certificate(cert_path.read_bytes())
        if isinstance(key, ec.EllipticCurvePrivateKey) and _same_key(certificate, key):
            _owner_only(key_path)
            return certificate, key
    now = now or _now()
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, ORGANISATION),
            x509.NameAttribute(
                NameOID.COMMON_NAME,
                f"Судейский стол: {host_name or 'ноутбук'} {now:%Y-%m-%d}"[:64],
            ),
        ]
    )
    domains = list(PERMITTED_DOMAINS)
    if valid_host_name(host_name) and host_name.lower() not in domains:
        domains.append(host_name.lower())
    permitted: list[x509.GeneralName] = [x509.DNSName(domain) for domain in domains]
    permitted += [x509.IPAddress(net) for net in PERMITTED_NETWORKS]
    public_key = key.public_key()
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(public_key)
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - BACKDATE)
        .not_valid_after(now + datetime.timedelta(days=CA_DAYS))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(_key_usage(signs_certificates=True), critical=True)
        .add_extension(
            x509.NameConstraints(permitted_subtrees=permitted, excluded_subtrees=None),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(public_key), critical=False)
        .sign(key, hashes.SHA256())
    )
    # The key first: a certificate is never left without the key it names.
    _write(key_path, _key_pem(key), private=True)
    _write(cert_path, certificate.public_bytes(serialization.Encoding.PEM), private=False)
    # A server certificate signed by an earlier authority is made again at once.
    for stale in (SERVER_CERT, SERVER_KEY):
        with contextlib.suppress(FileNotFoundError):
            (folder / stale).unlink()
    return certificate, key


def server_certificate(
    folder: Path,
    *,
    addresses: Iterable[str],
    names: Iterable[str],
    host_name: str = "",
    now: datetime.datetime | None = None,
) -> ServerCertificate:
    """The laptop's server certificate for these addresses and names, signed by the folder's
    authority: the one already made while it names exactly these, is the authority's and has
    more than ``RENEW_DAYS`` left; otherwise a new one."""
    now = now or _now()
    ca, ca_key = certificate_authority(folder, host_name=host_name, now=now)
    wanted_ips, wanted_names, left_out = _within_constraints(ca, addresses, names)
    cert_path, key_path = folder / SERVER_CERT, folder / SERVER_KEY

    def answer(*, issued: bool) -> ServerCertificate:
        return ServerCertificate(
            cert_path,
            key_path,
            folder / CA_CERT,
            tuple(str(ip) for ip in wanted_ips),
            tuple(wanted_names),
            issued=issued,
            left_out=tuple(left_out),
        )

    current = _current_server_certificate(cert_path, key_path, ca)
    if current is not None and _still_fits(current, wanted_ips, wanted_names, now):
        _owner_only(key_path)
        return answer(issued=False)
    key = ec.generate_private_key(ec.SECP256R1())
    alternative_names: list[x509.GeneralName] = [x509.DNSName(name) for name in wanted_names]
    alternative_names += [x509.IPAddress(ip) for ip in wanted_ips]
    ca_ski = ca.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value
    certificate = (
        x509.CertificateBuilder()
        .subject_name(
            x509.Name(
                [
                    x509.NameAttribute(NameOID.ORGANIZATION_NAME, ORGANISATION),
                    x509.NameAttribute(NameOID.COMMON_NAME, "Судейский стол: сервер"),
                ]
            )
        )
        .issuer_name(ca.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - BACKDATE)
        .not_valid_after(min(now + datetime.timedelta(days=SERVER_DAYS), ca.not_valid_after_utc))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(_key_usage(signs_certificates=False), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectAlternativeName(alternative_names), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(ca_ski),
            critical=False,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    _write(key_path, _key_pem(key), private=True)
    _write(cert_path, certificate.public_bytes(serialization.Encoding.PEM), private=False)
    return answer(issued=True)


def machine_server_certificate(folder: Path) -> ServerCertificate:
    """The server certificate for this machine as it is now: every address of its interfaces
    and its names (``localhost``, the host name, ``<host name>.local``)."""
    host_names = network.host_names()
    return server_certificate(
        folder,
        addresses=network.machine_addresses(),
        names=["localhost", *host_names],
        host_name=host_names[0] if host_names else "",
    )


def may_vouch_for(ca: x509.Certificate, address: str) -> bool:
    """Whether a server certificate signed by ``ca`` can name this address (or name)."""
    ips, names, _left_out = _within_constraints(ca, [address], [address])
    return bool(ips or names)


def _within_constraints(
    ca: x509.Certificate, addresses: Iterable[str], names: Iterable[str]
) -> tuple[list[IPAddress], list[str], list[str]]:
    """The addresses and names the authority may vouch for, in a stable order, and the rest."""
    constraints = ca.extensions.get_extension_for_class(x509.NameConstraints).value
    permitted = constraints.permitted_subtrees or []
    networks = [
        item.value
        for item in permitted
        if isinstance(item, x509.IPAddress)
        and isinstance(item.value, ipaddress.IPv4Network | ipaddress.IPv6Network)
    ]
    domains = [item.value.lower() for item in permitted if isinstance(item, x509.DNSName)]
    ips: list[IPAddress] = []
    kept_names: list[str] = []
    left_out: list[str] = []
    for text in addresses:
        try:
            ip = ipaddress.ip_address(text.strip("[]").split("%", 1)[0])
        except ValueError:
            continue
        if ip in ips:
            continue
        if any(ip.version == net.version and ip in net for net in networks):
            ips.append(ip)
        else:
            left_out.append(str(ip))
    for raw in names:
        name = raw.lower().rstrip(".")
        if not valid_host_name(name) or name in kept_names:
            continue
        if any(name == domain or name.endswith("." + domain) for domain in domains):
            kept_names.append(name)
        else:
            left_out.append(name)
    ips.sort(key=lambda ip: (ip.version, ip.packed))
    return ips, sorted(kept_names), left_out


def _current_server_certificate(
    cert_path: Path, key_path: Path, ca: x509.Certificate
) -> x509.Certificate | None:
    try:
        certificate = x509.load_pem_x509_certificate(cert_path.read_bytes())
        key = serialization.load_pem_private_key(key_path.read_bytes(), password=None)
    except (OSError, ValueError):
        return None
    try:
        certificate.verify_directly_issued_by(ca)
    except (ValueError, TypeError, InvalidSignature):
        return None
    if not isinstance(key, ec.EllipticCurvePrivateKey) or not _same_key(certificate, key):
        return None
    return certificate


def _still_fits(
    certificate: x509.Certificate,
    ips: list[IPAddress],
    names: list[str],
    now: datetime.datetime,
) -> bool:
    if certificate.not_valid_after_utc - now < datetime.timedelta(days=RENEW_DAYS):
        return False
    san = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    return set(san.get_values_for_type(x509.IPAddress)) == set(ips) and set(
        san.get_values_for_type(x509.DNSName)
    ) == set(names)


def _same_key(certificate: x509.Certificate, key: ec.EllipticCurvePrivateKey) -> bool:
    encoding, form = serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    return certificate.public_key().public_bytes(encoding, form) == key.public_key().public_bytes(
        encoding, form
    )


def _key_pem(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


def _private_folder(folder: Path) -> None:
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    with contextlib.suppress(OSError):
        folder.chmod(0o700)


def _owner_only(path: Path) -> None:
    with contextlib.suppress(OSError):
        path.chmod(0o600)


def _write(path: Path, content: bytes, *, private: bool) -> None:
    """Write through a temporary file in the same folder and rename it over ``path``, so a crash
    leaves the old file or the new one; a key is created readable by its owner only."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0)
    descriptor = os.open(temporary, flags, 0o600 if private else 0o644)
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(content)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()
        raise
    if private:
        _owner_only(path)


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)
