from django.urls import path

from floor import public_views, views

app_name = "floor"

urlpatterns = [
    path("t/<slug:slug>/floor/", views.floor_home, name="home"),
    path("t/<slug:slug>/floor/clock/start/", views.clock_start, name="clock-start"),
    path("t/<slug:slug>/floor/clock/pause/", views.clock_pause, name="clock-pause"),
    path("t/<slug:slug>/floor/clock/resume/", views.clock_resume, name="clock-resume"),
    path("t/<slug:slug>/floor/clock/end/", views.clock_end, name="clock-end"),
    path("t/<slug:slug>/floor/clock/badge/", views.clock_badge, name="clock-badge"),
    path("t/<slug:slug>/floor/calls/badge/", views.calls_badge, name="calls-badge"),
    path("t/<slug:slug>/floor/clock/projector/", views.projector, name="projector"),
    path("t/<slug:slug>/floor/matches/<int:match_id>/extend/", views.extend, name="extend"),
    path("t/<slug:slug>/floor/calls/<int:call_id>/claim/", views.call_claim, name="call-claim"),
    path(
        "t/<slug:slug>/floor/calls/<int:call_id>/escalate/",
        views.call_escalate,
        name="call-escalate",
    ),
    path(
        "t/<slug:slug>/floor/calls/<int:call_id>/resolve/", views.call_resolve, name="call-resolve"
    ),
    path("t/<slug:slug>/floor/calls/escalated/", views.console_calls, name="console-calls"),
    path("t/<slug:slug>/floor/slips/", views.slips, name="slips"),
    path("t/<slug:slug>/floor/players-link/", views.players_link, name="players-link"),
    path(
        "t/<slug:slug>/floor/players-link/standings/publish/",
        views.standings_publish,
        name="standings-publish",
    ),
    path(
        "t/<slug:slug>/floor/players-link/standings/hide/",
        views.standings_hide,
        name="standings-hide",
    ),
    path("t/<slug:slug>/floor/players-link/renew/", views.link_renew, name="link-renew"),
    path("t/<slug:slug>/floor/check-in/", views.check_in_desk, name="check-in-desk"),
    path("t/<slug:slug>/floor/check-in/player/", views.check_in_player, name="check-in-player"),
    path("t/<slug:slug>/floor/check-in/drop/", views.drop_no_shows, name="drop-no-shows"),
    path(
        "t/<slug:slug>/floor/check-in/every-round/",
        views.check_in_every_round,
        name="check-in-every-round",
    ),
    # The players' pages: the token is the only key.
    path("p/<str:token>/", public_views.public_home, name="public"),
    path("p/<str:token>/clock/", public_views.public_clock, name="public-clock"),
    path("p/<str:token>/standings/", public_views.public_standings, name="public-standings"),
    path("p/<str:token>/playoff/", public_views.public_playoff, name="public-playoff"),
    path("p/<str:token>/events/", public_views.public_events, name="public-events"),
    path("p/<str:token>/tables/<int:table>/", public_views.table_page, name="table"),
    path("p/<str:token>/tables/<int:table>/call/", public_views.call_judge, name="call"),
    path("p/<str:token>/tables/<int:table>/report/", public_views.report, name="report"),
    path("p/<str:token>/check-in/", public_views.check_in, name="check-in"),
]
