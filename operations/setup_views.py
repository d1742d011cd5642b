"""The venue laptop's first run in the browser: the first organiser, then how tablets connect.

``serve`` on an empty data folder prints the laptop's own address; the page there creates the
first organiser without a terminal. It answers only requests made on the laptop itself (a loopback
address), and only while no account exists, so a guest on the venue's Wi-Fi who opens the desk
first cannot make themselves its organiser.
"""

import ipaddress
from pathlib import Path

from django.conf import settings
from django.contrib.auth import authenticate, get_user_model, login
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from core.errors import DomainError
from floor import qr
from operations import network, tls
from operations.forms import FirstOrganiserForm
from operations.services import create_first_organiser


def is_from_this_machine(request: HttpRequest) -> bool:
    """Whether the request comes from the laptop the desk runs on."""
    try:
        return ipaddress.ip_address(request.META.get("REMOTE_ADDR", "")).is_loopback
    except ValueError:
        return False


def needs_set_up() -> bool:
    return not get_user_model().objects.exists()


def first_run(request: HttpRequest) -> HttpResponse:
    if not needs_set_up():
        return redirect("login")
    if not is_from_this_machine(request):
        return render(request, "operations/first_run_elsewhere.html", status=403)
    form = FirstOrganiserForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            create_first_organiser(
                username=form.cleaned_data["username"],
                full_name=form.cleaned_data["full_name"],
                password=form.cleaned_data["password"],
            )
        except DomainError as error:
            form.add_error(None, str(error.message))
        else:
            # Signed in through the configured backends, as the sign-in page would.
            user = authenticate(
                request,
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password"],
            )
            if user is not None:
                login(request, user)
            return redirect(reverse("connect_tablets") + "?first=1")
    return render(request, "operations/first_run.html", {"form": form})


@login_required
def connect_tablets(request: HttpRequest) -> HttpResponse:
    """The addresses tablets open, each with a QR code to scan; printable for the judges' table.

    While ``serve`` serves HTTPS too, each address comes with the desk's certificate to install
    first (fetched over plain HTTP: the tablet does not trust HTTPS yet) and then the https://
    address, the one at which the tablet keeps working offline.
    """
    https_port = settings.DESK_LAN_HTTPS_PORT
    http_port = settings.DESK_LAN_HTTP_PORT or int(request.get_port())
    ca = tls.read_ca_certificate(tls.folder_for(settings.DATA_DIR)) if https_port else None
    addresses = []
    for address in network.lan_addresses("0.0.0.0"):
        url = network.url_for(address, http_port)
        entry = {"url": url, "qr": qr.svg(url)}
        if ca is not None and https_port and tls.may_vouch_for(ca, address):
            ca_url = url.rstrip("/") + reverse("connect_ca_certificate")
            https_url = network.url_for(address, https_port, secure=True)
            entry |= {
                "ca_url": ca_url,
                "ca_qr": qr.svg(ca_url),
                "https_url": https_url,
                "https_qr": qr.svg(https_url),
            }
        addresses.append(entry)
    return render(
        request,
        "operations/connect_tablets.html",
        {
            "addresses": addresses,
            "first": request.GET.get("first") == "1",
            # Only where the desk's authority may vouch for an address (a private one).
            "https": any("https_url" in entry for entry in addresses),
            "ca_fingerprint": tls.fingerprint(ca) if ca is not None else "",
            "ca_name": ca_file_name(),
        },
    )


def ca_file_name() -> str:
    return Path(reverse("connect_ca_certificate")).name


def ca_certificate(request: HttpRequest) -> HttpResponse:
    """The desk's certificate authority (its certificate only, the public half) for a tablet to
    install; open to anyone, since a tablet fetches it before anyone signs in on it. Served only
    while the desk serves HTTPS with it."""
    if not settings.DESK_LAN_HTTPS_PORT:
        raise Http404
    ca = tls.read_ca_certificate(tls.folder_for(settings.DATA_DIR))
    if ca is None:
        raise Http404
    # DER with this type: Android's certificate installer and the iPad's profile installer
    # both take it as a certificate authority to install.
    response = HttpResponse(tls.der(ca), content_type="application/x-x509-ca-cert")
    response["Content-Disposition"] = f'attachment; filename="{ca_file_name()}"'
    return response
