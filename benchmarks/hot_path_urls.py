"""The app's URLs and, beside them, the hello-world view the hot path is measured against."""

from django.http import HttpRequest, HttpResponse
from django.urls import include, path


def hello(request: HttpRequest) -> HttpResponse:
    """A fixed string: through the same middleware, touching neither the session nor the
    database."""
    return HttpResponse("hello", content_type="text/plain")


urlpatterns = [path("bench/hello/", hello), path("", include("config.urls"))]
