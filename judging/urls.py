from django.urls import path

from judging import console_views, guideline_views, report_views, views

app_name = "judging"

urlpatterns = [
    path("<slug:slug>/judge/", views.judge_home, name="judge-home"),
    path("<slug:slug>/judge/log/", views.log_infraction, name="log"),
    path("<slug:slug>/judge/preview/", views.preview, name="preview"),
    path("<slug:slug>/judge/issue/", views.issue, name="issue"),
    path("<slug:slug>/judge/issue/queued/", views.issue_queued, name="issue-queued"),
    path("<slug:slug>/judge/mine/", views.my_records, name="mine"),
    path("<slug:slug>/records/<int:record_id>/", views.record_card, name="record"),
    path("<slug:slug>/records/<int:record_id>/undo/", views.record_undo, name="record-undo"),
    path(
        "<slug:slug>/records/<int:record_id>/acknowledge/",
        views.record_acknowledge,
        name="record-acknowledge",
    ),
    path(
        "<slug:slug>/records/<int:record_id>/statements/",
        views.record_statement,
        name="record-statement",
    ),
    path("<slug:slug>/console/", console_views.console, name="console"),
    path(
        "<slug:slug>/console/records/<int:record_id>/",
        console_views.console_record,
        name="console-record",
    ),
    path(
        "<slug:slug>/console/records/<int:record_id>/<str:action>/",
        console_views.console_act,
        name="console-act",
    ),
    path(
        "<slug:slug>/players/<int:registration_id>/record/",
        console_views.player_page,
        name="player",
    ),
    path("<slug:slug>/events/", console_views.events, name="events"),
    path("<slug:slug>/guideline/", guideline_views.guideline, name="guideline"),
    path("<slug:slug>/report/", report_views.report_page, name="report"),
    path(
        "<slug:slug>/report/<slug:what>.<slug:extension>",
        report_views.report_export,
        name="report-export",
    ),
]
