"""The venue laptop's first run in the browser: the first organiser, then how tablets connect.

``serve`` on an empty data folder prints the laptop's own address; the page there creates the
first organiser without a terminal. It answers only requests made on the laptop itself (a loopback
address), and only while no account exists, so a guest on the venue's Wi-Fi who opens the desk
first cannot make themselves its organiser.
"""

import ipaddress

from django.contrib.auth import authenticate, get_user_model, login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from core.errors import DomainError
from floor import qr
from operations import network
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
    """The addresses tablets open, each with a QR code to scan; printable for the judges' table."""
    port = request.get_port()
    addresses = [
        {"url": url, "qr": qr.svg(url)}
        for url in (
            network.url_for(address, int(port)) for address in network.lan_addresses("0.0.0.0")
        )
    ]
    return render(
        request,
        "operations/connect_tablets.html",
        {"addresses": addresses, "first": request.GET.get("first") == "1"},
    )
