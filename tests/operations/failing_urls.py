"""The app's URLs plus one view that fails, to see what a real error leaves behind."""

from django.http import HttpRequest, HttpResponse
from django.urls import path

from config.urls import handler400, handler500, urlpatterns

__all__ = ["handler400", "handler500", "urlpatterns"]


def boom(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("forced failure for the log test")


urlpatterns = [*urlpatterns, path("boom/", boom)]
