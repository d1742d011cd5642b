"""The addresses tablets on the venue's network can reach this machine at."""

import ipaddress
import os
import socket

import psutil

ALL_INTERFACES = {"0.0.0.0", "::", ""}


def machine_addresses() -> list[str]:
    """Every IP address of this machine's interfaces that is up, loopback first, as text."""
    stats = psutil.net_if_stats()
    found: list[ipaddress.IPv4Address | ipaddress.IPv6Address] = []
    for interface, addresses in psutil.net_if_addrs().items():
        if interface in stats and not stats[interface].isup:
            continue
        for address in addresses:
            if address.family not in (socket.AF_INET, socket.AF_INET6):
                continue
            try:
                # A link-local IPv6 address carries its interface ("fe80::1%wlan0").
                ip = ipaddress.ip_address(address.address.split("%", 1)[0])
            except ValueError:
                continue
            if ip not in found:
                found.append(ip)
    found.sort(key=lambda ip: (not ip.is_loopback, ip.version, ip.packed))
    return [str(ip) for ip in found]


def lan_addresses(host: str) -> list[str]:
    """The addresses to print for tablets: the machine's own non-loopback addresses when the
    server binds every interface (IPv6 ones only when it binds IPv6), or the one it binds."""
    if host not in ALL_INTERFACES:
        return [] if _is_loopback(host) else [host]
    addresses = []
    for text in machine_addresses():
        ip = ipaddress.ip_address(text)
        if ip.is_loopback or ip.is_link_local:
            continue
        if ip.version == 6 and host != "::":
            continue
        addresses.append(text)
    return addresses


def host_names() -> list[str]:
    """This machine's own names, which a tablet may use instead of an address."""
    name = socket.gethostname()
    return [name, f"{name}.local"] if name and name != "localhost" else []


def allowed_hosts_for(host: str, configured: list[str]) -> list[str]:
    """The configured hosts plus, when every interface is bound, the machine's own addresses and
    names (or the one address bound): the operator edits no variable for the venue's network."""
    extra: list[str] = []
    if host in ALL_INTERFACES:
        extra = [_as_host(address) for address in machine_addresses()] + host_names()
    elif not _is_loopback(host):
        extra = [_as_host(host)]
    merged = list(configured)
    for item in extra:
        if item not in merged:
            merged.append(item)
    return merged


def port_free(host: str, port: int) -> bool:
    """Whether a server could listen on ``host:port`` now (as uvicorn binds: address reuse on)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        if os.name != "nt":
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host.strip("[]") or "0.0.0.0", port))
        except OSError:
            return False
    return True


def url_for(address: str, port: int, *, secure: bool = False) -> str:
    scheme = "https" if secure else "http"
    return f"{scheme}://{_as_host(address)}:{port}/"


def is_loopback(host: str) -> bool:
    return _is_loopback(host)


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _as_host(address: str) -> str:
    """An IPv6 address in a URL or a Host header is written in brackets."""
    return f"[{address}]" if ":" in address and not address.startswith("[") else address


def proxy_options(trusted: list[str]) -> dict[str, object]:
    """uvicorn's options for the client address: ``X-Forwarded-For`` is read only from the named
    proxies. uvicorn's default trusts 127.0.0.1, which made any client's header the address the
    limits counted whenever the server listened behind nothing at all."""
    if not trusted:
        return {"proxy_headers": False, "forwarded_allow_ips": ""}
    return {"proxy_headers": True, "forwarded_allow_ips": ",".join(trusted)}
