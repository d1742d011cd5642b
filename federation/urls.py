from django.urls import path

from federation import views

app_name = "federation"

urlpatterns = [
    path("t/<slug:slug>/event-file.json", views.event_file, name="event-file"),
    path("t/<slug:slug>/api-keys/", views.api_keys, name="api-keys"),
    path(
        "t/<slug:slug>/api-keys/<int:key_id>/revoke/", views.revoke_api_key, name="api-key-revoke"
    ),
    path("federation/", views.home, name="home"),
    path("federation/events/import/", views.import_event, name="import-event"),
    path("federation/players/<int:pk>/", views.player, name="player"),
    path("federation/players/<int:pk>/suspend/", views.suspend, name="suspend"),
    path("federation/suspensions/<int:pk>/term/", views.set_term, name="set-term"),
    path("federation/suspensions/<int:pk>/lift/", views.lift, name="lift"),
    path("federation/suspensions.json", views.suspension_list, name="suspension-list"),
    path("federation/schemas/<str:name>.json", views.schema_file, name="schema"),
    path("suspensions/import/", views.list_import, name="list-import"),
]
