"""Where the server may connect on a caller's behalf: the outbound address guard.

Every URL a caller gives the server to call (a webhook, a callback) goes through
:func:`check_target` twice: at registration (:func:`check_target_url`, which
makes a refusal a 400), and before each call, when the outbound stack
(:mod:`server.processes.outbound`, the processes' one door to it) resolves the
name, checks every address and connects to a checked one. Anything that is not
plainly a global unicast address is refused, unless the operator's allow-list
(``PARLOUR_WEBHOOK_ALLOW``, parsed by :func:`allowlist`) covers it.

**IPv6 forms of IPv4.** Several IPv6 ranges carry an IPv4 address that a
translator, a relay or the host's own stack may end up reaching (and Python's
``is_global`` calls some of them global). :func:`embedded_ipv4` extracts it and
:func:`refused` judges it as the IPv4 address it is:

* IPv4-mapped ``::ffff:0:0/96`` and IPv4-compatible ``::/96`` (deprecated);
* SIIT, IPv4-translated ``::ffff:0:0:0/96`` (RFC 2765);
* NAT64 well-known prefix ``64:ff9b::/96`` (RFC 6052);
* 6to4 ``2002::/16`` (RFC 3056: bits 16-47);
* Teredo ``2001::/32`` (RFC 4380: the server, and the client obfuscated by XOR).

The NAT64 local-use prefix ``64:ff9b:1::/48`` (RFC 8215) is refused whole:
where in it an IPv4 address sits depends on the operator's prefix length, so
none of it is plainly global. So is the site-local ``fec0::/10`` (RFC 3513,
deprecated by RFC 3879 but still routed inside some sites), which Python
3.11's ``is_global`` calls global.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Sequence
from urllib.parse import urlsplit

from server.services.errors import InvalidRequest

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str, int], list[str]]

_MAPPED = ipaddress.ip_network("::ffff:0:0/96")
_COMPATIBLE = ipaddress.ip_network("::/96")
_SIIT = ipaddress.ip_network("::ffff:0:0:0/96")
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_NAT64_LOCAL = ipaddress.ip_network("64:ff9b:1::/48")
_SITE_LOCAL = ipaddress.ip_network("fec0::/10")
_SIX_TO_FOUR = ipaddress.ip_network("2002::/16")
_TEREDO = ipaddress.ip_network("2001::/32")


class TargetRefused(Exception):
    """A URL names (or resolves to) an address the server must not reach."""


def allowlist(spec: str | None) -> tuple[Network, ...]:
    """The operator's allowed ranges: a comma-separated CIDR list (bare addresses too).

    >>> allowlist("127.0.0.1/8, ::1")
    (IPv4Network('127.0.0.0/8'), IPv6Network('::1/128'))

    Raises:
        ValueError: an entry is not an address or a network.
    """
    return tuple(
        ipaddress.ip_network(part.strip(), strict=False)
        for part in (spec or "").split(",")
        if part.strip()
    )


def _low32(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address:
    return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)


def embedded_ipv4(ip: Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address carries (see the module docstring); [] if none.

    >>> [str(a) for a in embedded_ipv4(ipaddress.ip_address("64:ff9b::a9fe:a9fe"))]
    ['169.254.169.254']
    >>> [str(a) for a in embedded_ipv4(ipaddress.ip_address("2002:7f00:1::"))]
    ['127.0.0.1']
    >>> embedded_ipv4(ipaddress.ip_address("2606:4700::1111"))
    []
    """
    if not isinstance(ip, ipaddress.IPv6Address):
        return []
    if ip in _MAPPED or ip in _COMPATIBLE or ip in _SIIT or ip in _NAT64:
        return [_low32(ip)]
    if ip in _SIX_TO_FOUR:
        return [ipaddress.IPv4Address((int(ip) >> 80) & 0xFFFFFFFF)]
    if ip in _TEREDO:
        server = ipaddress.IPv4Address((int(ip) >> 64) & 0xFFFFFFFF)
        client = ipaddress.IPv4Address(~int(ip) & 0xFFFFFFFF)
        return [server, client]
    return []


def _plainly_global(ip: Address) -> bool:
    return ip.is_global and not ip.is_multicast


def refused(address: str, allow: Sequence[Network] = ()) -> bool:
    """Whether the server must not connect to ``address`` (an IP literal).

    Refused: anything but a global unicast address (loopback, private,
    link-local, shared, multicast, unspecified, reserved, documentation), an
    IPv6 address whose embedded IPv4 address is any of those, the NAT64
    local-use range and the site-local ``fec0::/10``; unless a range of
    ``allow`` holds the address (or, for an IPv4-mapped address, the IPv4
    address it is on the wire).

    >>> refused("127.0.0.1"), refused("93.184.216.34"), refused("::ffff:10.0.0.1")
    (True, False, True)
    >>> refused("64:ff9b::a9fe:a9fe"), refused("::7f00:1"), refused("2002:7f00:1::")
    (True, True, True)
    >>> refused("::ffff:0:7f00:1"), refused("64:ff9b::5db8:d822"), refused("fec0::1")
    (True, False, True)
    """
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    wire: Address = ip
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        wire = ip.ipv4_mapped
    if any(a in net for a in {ip, wire} for net in allow if net.version == a.version):
        return False
    if ip in _NAT64_LOCAL or ip in _SITE_LOCAL:
        return True
    embedded = embedded_ipv4(ip)
    if embedded:  # judged as the IPv4 it reaches; the IPv6 wrapper itself says nothing
        return not all(_plainly_global(v4) for v4 in embedded)
    return not _plainly_global(ip)


def resolve(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to (TCP), in the resolver's order."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def target(url: str) -> tuple[str, int]:
    """The host and port a URL connects to."""
    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    return parts.hostname or "", port


def check_target(
    url: str, allow: Sequence[Network] = (), resolver: Resolver = resolve
) -> list[str]:
    """The addresses a connection to ``url`` may use: all of them checked by :func:`refused`.

    An IP literal is checked as is; a name is resolved and *every* address it
    resolves to must pass (connect then to one of these, never to a fresh
    resolution, so the name cannot be rebound in between). ``localhost`` and
    its subdomains are loopback (RFC 6761) and never sent to a resolver.

    Raises:
        TargetRefused: an address is refused (the message names it: for logs only).
        OSError: the name does not resolve.
        ValueError: the URL's port is not a port.
    """
    host, port = target(url)
    try:
        addresses = [str(ipaddress.ip_address(host.split("%", 1)[0]))]
    except ValueError:
        if host.lower().rstrip(".").split(".")[-1] == "localhost":
            addresses = ["127.0.0.1", "::1"]
        else:
            addresses = resolver(host, port)
    bad = [a for a in addresses if refused(a, allow)]
    if bad or not addresses:
        raise TargetRefused(f"{host} resolves to a refused address: {bad}")
    return addresses


def check_url(url: str | None, field: str) -> None:
    """An absolute http(s) URL (or None), or InvalidRequest naming ``field``."""
    if url is None:
        return
    try:
        parts = urlsplit(url)
        ok = parts.scheme in ("http", "https") and bool(parts.hostname) and parts.port != 0
    except ValueError:  # a bracketed host left open, a port out of range
        ok = False
    if not ok:
        raise InvalidRequest("not an http(s) URL", {field: ["an absolute http(s) URL"]})


def check_target_url(url: str, allow: Sequence[Network], what: str = "webhooks") -> None:
    """Registration's check: an http(s) URL outside the server's own network
    (docs/operations.md#security-settings), for a webhook or a callback (``what``
    names them in the error).

    Its address, or every address its name resolves to now, must pass
    :func:`check_target`. A name that does not resolve yet is accepted: the
    outbound stack checks again, after resolving, before each call.

    Raises:
        InvalidRequest: not an http(s) URL, or an address the server must not reach.
    """
    check_url(url, "url")
    try:
        check_target(url, allow)
    except TargetRefused:
        raise InvalidRequest(
            f"{what} may not target internal addresses",
            {"url": ["a public address (or one the operator allows)"]},
        ) from None
    except (OSError, UnicodeError):
        pass
