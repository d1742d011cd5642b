from django.urls import path

from decks import views

app_name = "decks"

urlpatterns = [
    path("t/<slug:slug>/decks/", views.overview, name="overview"),
    path("t/<slug:slug>/decks/rules/", views.rules_edit, name="rules"),
    path("t/<slug:slug>/decks/recheck/", views.recheck_progress, name="recheck"),
    path("t/<slug:slug>/decks/pool/", views.pool_import, name="pool-import"),
    path("t/<slug:slug>/decks/codes/", views.codes_issue, name="codes"),
    path("t/<slug:slug>/decks/codes/slips/", views.code_slips, name="code-slips"),
    path(
        "t/<slug:slug>/decks/players/<int:registration_id>/sheet/",
        views.registration_sheet,
        name="sheet",
    ),
    path("t/<slug:slug>/decks/findings/", views.findings, name="findings"),
    path("t/<slug:slug>/decks/checks/", views.checks, name="checks"),
    path("t/<slug:slug>/decks/checks/pick/", views.pick, name="pick"),
    path("t/<slug:slug>/decks/players/<int:registration_id>/", views.player_list, name="player"),
    path(
        "t/<slug:slug>/decks/players/<int:registration_id>/save/",
        views.player_list_save,
        name="player-save",
    ),
    path(
        "t/<slug:slug>/decks/players/<int:registration_id>/check/",
        views.deck_check,
        name="check",
    ),
    path("decklist/<slug:slug>/", views.submit, name="submit"),
]
