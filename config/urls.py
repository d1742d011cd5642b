from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.i18n import set_language

from config import views
from federation.api import api
from operations.health import healthz
from operations.setup_views import ca_certificate, connect_tablets, first_run

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", healthz, name="healthz"),
    path("sw.js", views.service_worker, name="service_worker"),
    path("setup/", first_run, name="first_run"),
    path("connect/", connect_tablets, name="connect_tablets"),
    path("connect/desk-ca.crt", ca_certificate, name="connect_ca_certificate"),
    path(
        "login/",
        auth_views.LoginView.as_view(
            template_name="config/login.html", redirect_authenticated_user=True
        ),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/setlang/", set_language, name="set_language"),
    path("t/", include("tournaments.urls")),
    path("t/", include("judging.urls")),
    path("", include("decks.urls")),
    path("", include("floor.urls")),
    path("", include("federation.urls")),
    path("api/v1/", api.urls),
    path("admin/", admin.site.urls),
]

# Error pages that need nothing but the templates: the request id on the 500 page, a plain word
# for a refused host name (operations/views.py).
handler400 = "operations.views.bad_request"
handler500 = "operations.views.server_error"
