from django.contrib import admin
from django.urls import path
from django.views.i18n import set_language

from config import views

urlpatterns = [
    path("", views.home, name="home"),
    path("i18n/setlang/", set_language, name="set_language"),
    path("admin/", admin.site.urls),
]
