from django.urls import path

from tournaments import play_views, playoff_views, views

app_name = "tournaments"

urlpatterns = [
    path("new/", views.tournament_create, name="create"),
    path("<slug:slug>/", views.tournament_detail, name="detail"),
    path("<slug:slug>/settings/", views.tournament_settings, name="settings"),
    path("<slug:slug>/finish/", views.tournament_finish, name="finish"),
    path("<slug:slug>/staff/", views.staff_list, name="staff"),
    path("<slug:slug>/staff/<int:staff_id>/remove/", views.staff_remove, name="staff-remove"),
    path("<slug:slug>/players/", views.registration_list, name="registrations"),
    path("<slug:slug>/players/search/", views.player_search, name="player-search"),
    path("<slug:slug>/players/add/", views.registration_add, name="registration-add"),
    path("<slug:slug>/players/import/", views.registration_import, name="registration-import"),
    path("<slug:slug>/jobs/<int:job_id>/", views.job_progress, name="job"),
    path(
        "<slug:slug>/players/<int:registration_id>/drop/",
        views.registration_drop,
        name="registration-drop",
    ),
    path("<slug:slug>/rounds/", play_views.round_list, name="rounds"),
    path("<slug:slug>/rounds/draft/", play_views.round_draft, name="round-draft"),
    path("<slug:slug>/rounds/swap/", play_views.round_swap, name="round-swap"),
    path("<slug:slug>/rounds/publish/", play_views.round_publish, name="round-publish"),
    path("<slug:slug>/rounds/<int:number>/", play_views.round_detail, name="round"),
    path(
        "<slug:slug>/matches/<int:match_id>/result/", play_views.match_result, name="match-result"
    ),
    path("<slug:slug>/matches/<int:match_id>/", play_views.match_detail, name="match"),
    path("<slug:slug>/matches/<int:match_id>/games/", play_views.match_game, name="match-game"),
    path("<slug:slug>/matches/<int:match_id>/time/", play_views.match_time, name="match-time"),
    path(
        "<slug:slug>/matches/<int:match_id>/correct/",
        play_views.match_correct,
        name="match-correct",
    ),
    path("<slug:slug>/standings/", play_views.standings, name="standings"),
    path("<slug:slug>/playoff/", playoff_views.playoff_page, name="playoff"),
    path("<slug:slug>/playoff/settings/", playoff_views.playoff_settings, name="playoff-settings"),
    path("<slug:slug>/playoff/publish/", playoff_views.playoff_publish, name="playoff-publish"),
    path("<slug:slug>/playoff/next/", playoff_views.playoff_next, name="playoff-next"),
    path(
        "<slug:slug>/playoff/<int:stage>/<int:slot>/result/",
        playoff_views.playoff_result,
        name="playoff-result",
    ),
    path(
        "<slug:slug>/playoff/matches/<int:match_id>/winner/",
        playoff_views.playoff_winner,
        name="playoff-winner",
    ),
    path(
        "<slug:slug>/playoff/standings/", playoff_views.playoff_standings, name="playoff-standings"
    ),
]
