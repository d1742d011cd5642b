"""Who sent a request: the one address every per-client limit keys on.

The ASGI server decides it. Under ``serve`` uvicorn takes the client from ``X-Forwarded-For``
only when the request comes from a proxy the operator named (``DJANGO_TRUSTED_PROXIES``,
``operations.network.proxy_options``); otherwise the header is ignored and the address is the
peer's. So the app reads ``REMOTE_ADDR`` alone and never parses the header itself: a header a
client writes cannot pick the address a sign-in lockout, a call limit or a throttle counts.
"""

from django.http import HttpRequest


def client_address(request: HttpRequest) -> str | None:
    """The client's address as the server resolved it (django-axes' AXES_CLIENT_IP_CALLABLE);
    None for a request made inside the app (a test's or a command's sign-in)."""
    address = request.META.get("REMOTE_ADDR")
    return str(address) if address else None
