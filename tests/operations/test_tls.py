"""The desk's own certificate authority and the laptop's server certificate (operations/tls.py)."""

import datetime
import ipaddress
import stat

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import load_pem_private_key
from cryptography.x509 import verification
from cryptography.x509.oid import ExtendedKeyUsageOID

from operations import tls

VENUE = ["127.0.0.1", "::1", "192.168.1.23", "fe80::1%wlan0"]
NAMES = ["localhost", "anna-laptop", "anna-laptop.local"]
NOW = datetime.datetime(2026, 12, 12, 10, 0, tzinfo=datetime.UTC)


def san(path):
    certificate = x509.load_pem_x509_certificate(path.read_bytes())
    names = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    return (
        sorted(str(ip) for ip in names.get_values_for_type(x509.IPAddress)),
        sorted(names.get_values_for_type(x509.DNSName)),
    )


def verifier_for(ca, name, now=NOW):
    store = verification.Store([ca])
    builder = verification.PolicyBuilder().store(store).time(now)
    return builder.build_server_verifier(name)


def test_the_authority_and_the_server_certificate_are_made_once_for_the_venue_s_addresses(
    tmp_path,
):
    folder = tmp_path / "data" / "tls"

    made = tls.server_certificate(
        folder, addresses=VENUE, names=NAMES, host_name="anna-laptop", now=NOW
    )

    assert made.issued is True
    assert made.addresses == ("127.0.0.1", "192.168.1.23", "::1", "fe80::1")
    assert made.names == ("anna-laptop", "anna-laptop.local", "localhost")
    assert made.left_out == ()
    assert san(made.certfile) == (
        ["127.0.0.1", "192.168.1.23", "::1", "fe80::1"],
        ["anna-laptop", "anna-laptop.local", "localhost"],
    )
    # The keys are readable by their owner only, in a folder only the owner can open.
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE((folder / "ca.key").stat().st_mode) == 0o600
    assert stat.S_IMODE((folder / "server.key").stat().st_mode) == 0o600
    assert sorted(path.name for path in folder.iterdir()) == [
        "ca.crt",
        "ca.key",
        "server.crt",
        "server.key",
    ]

    ca = tls.read_ca_certificate(folder)
    assert ca.extensions.get_extension_for_class(x509.BasicConstraints).value == (
        x509.BasicConstraints(ca=True, path_length=0)
    )
    assert ca.not_valid_after_utc - ca.not_valid_before_utc == datetime.timedelta(days=3651)
    server = x509.load_pem_x509_certificate(made.certfile.read_bytes())
    assert server.issuer == ca.subject
    assert server.not_valid_after_utc == NOW + datetime.timedelta(days=397)
    assert server.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value == (
        x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH])
    )
    # A browser's path building accepts it for every address and name it names.
    for name in [
        x509.IPAddress(ipaddress.ip_address("192.168.1.23")),
        x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
        x509.DNSName("anna-laptop.local"),
        x509.DNSName("localhost"),
    ]:
        chain = verifier_for(ca, name)
        assert chain.verify(server, [])[-1] == ca


def test_the_same_addresses_reuse_both_certificates(tmp_path):
    folder = tmp_path / "tls"
    first = tls.server_certificate(folder, addresses=VENUE, names=NAMES, now=NOW)
    ca_before = (folder / "ca.crt").read_bytes()
    ca_key_before = (folder / "ca.key").read_bytes()
    server_before = first.certfile.read_bytes()

    # A restart the next week, the same addresses in another order.
    again = tls.server_certificate(
        folder,
        addresses=list(reversed(VENUE)),
        names=list(reversed(NAMES)),
        now=NOW + datetime.timedelta(days=7),
    )

    assert again.issued is False
    assert (folder / "ca.crt").read_bytes() == ca_before
    assert (folder / "ca.key").read_bytes() == ca_key_before
    assert again.certfile.read_bytes() == server_before


def test_new_addresses_get_a_new_server_certificate_from_the_same_authority(tmp_path):
    folder = tmp_path / "tls"
    tls.server_certificate(folder, addresses=VENUE, names=NAMES, now=NOW)
    ca_before = (folder / "ca.crt").read_bytes()
    old_serial = x509.load_pem_x509_certificate((folder / "server.crt").read_bytes()).serial_number

    # The laptop joined the venue's Wi-Fi instead of the phone's hotspot.
    moved = tls.server_certificate(
        folder, addresses=["127.0.0.1", "10.20.0.7"], names=NAMES, now=NOW
    )

    assert moved.issued is True
    assert san(moved.certfile)[0] == ["10.20.0.7", "127.0.0.1"]
    new = x509.load_pem_x509_certificate(moved.certfile.read_bytes())
    assert new.serial_number != old_serial
    # The tablets trust the authority, which stays: nothing to install again.
    assert (folder / "ca.crt").read_bytes() == ca_before
    new.verify_directly_issued_by(tls.read_ca_certificate(folder))


def test_a_server_certificate_near_its_end_is_made_again(tmp_path):
    folder = tmp_path / "tls"
    tls.server_certificate(folder, addresses=VENUE, names=NAMES, now=NOW)

    later = NOW + datetime.timedelta(days=397 - 29)
    renewed = tls.server_certificate(folder, addresses=VENUE, names=NAMES, now=later)

    assert renewed.issued is True
    certificate = x509.load_pem_x509_certificate(renewed.certfile.read_bytes())
    assert certificate.not_valid_after_utc == later + datetime.timedelta(days=397)


def test_a_loosened_key_is_made_owner_only_again_and_a_broken_server_key_replaced(tmp_path):
    folder = tmp_path / "tls"
    tls.server_certificate(folder, addresses=VENUE, names=NAMES, now=NOW)
    (folder / "ca.key").chmod(0o644)
    (folder / "server.key").write_bytes(b"not a key")

    again = tls.server_certificate(folder, addresses=VENUE, names=NAMES, now=NOW)

    assert stat.S_IMODE((folder / "ca.key").stat().st_mode) == 0o600
    assert again.issued is True
    assert again.keyfile.read_bytes().startswith(b"-----BEGIN PRIVATE KEY-----")


def test_the_authority_may_vouch_only_for_the_local_network(tmp_path):
    folder = tmp_path / "tls"
    made = tls.server_certificate(
        folder,
        addresses=[*VENUE, "203.0.113.9", "8.8.8.8"],
        names=[*NAMES, "desk.example.org"],
        host_name="anna-laptop",
        now=NOW,
    )
    ca = tls.read_ca_certificate(folder)

    # A public address or name is left out of the server certificate, and said so.
    assert made.left_out == ("203.0.113.9", "8.8.8.8", "desk.example.org")
    constraints = ca.extensions.get_extension_for_class(x509.NameConstraints)
    assert constraints.critical is True
    assert {str(item.value) for item in constraints.value.permitted_subtrees} == {
        "localhost",
        "local",
        "anna-laptop",
        "10.0.0.0/8",
        "172.16.0.0/12",
        "192.168.0.0/16",
        "127.0.0.0/8",
        "169.254.0.0/16",
        "::1/128",
        "fc00::/7",
        "fe80::/10",
    }
    assert tls.may_vouch_for(ca, "192.168.1.23") is True
    assert tls.may_vouch_for(ca, "192.0.2.2") is False

    # Were the authority's key stolen, a certificate it signed for a public site is refused.
    key = load_pem_private_key((folder / "ca.key").read_bytes(), password=None)

    def signed_for(name):
        leaf_key = ec.generate_private_key(ec.SECP256R1())
        return (
            x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(x509.NameOID.ORGANIZATION_NAME, "x")]))
            .issuer_name(ca.subject)
            .public_key(leaf_key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(NOW - datetime.timedelta(days=1))
            .not_valid_after(NOW + datetime.timedelta(days=30))
            .add_extension(x509.SubjectAlternativeName([name]), critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(
                x509.AuthorityKeyIdentifier.from_issuer_public_key(ca.public_key()),
                critical=False,
            )
            .sign(key, hashes.SHA256())
        )

    local = x509.IPAddress(ipaddress.ip_address("192.168.7.7"))
    assert verifier_for(ca, local).verify(signed_for(local), [])[-1] == ca
    for public in [
        x509.DNSName("bank.example.com"),
        x509.IPAddress(ipaddress.ip_address("8.8.8.8")),
    ]:
        with pytest.raises(verification.VerificationError, match="constraint"):
            verifier_for(ca, public).verify(signed_for(public), [])


def test_a_host_name_a_certificate_cannot_carry_is_left_out():
    assert tls.valid_host_name("anna-laptop.local") is True
    assert tls.valid_host_name("Anna-Laptop") is True
    assert tls.valid_host_name("анна") is False
    assert tls.valid_host_name("anna_laptop") is False
    assert tls.valid_host_name("") is False
