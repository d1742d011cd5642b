"""Response headers for pages that belong to a signed-in person."""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse


class PrivatePages:
    """``Cache-Control: private, no-store`` on every answer to a signed-in user and on every
    download: a shared tablet's browser, or a proxy, must not keep a judge's pages or a report."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user = getattr(request, "user", None)
        download = response.get("Content-Disposition", "").startswith("attachment")
        if download or (user is not None and user.is_authenticated):
            response["Cache-Control"] = "private, no-store"
        return response
