from django.urls import path

from judging import views

app_name = "judging"

urlpatterns = [
    path("<slug:slug>/judge/", views.judge_home, name="judge-home"),
    path("<slug:slug>/judge/log/", views.log_infraction, name="log"),
    path("<slug:slug>/judge/preview/", views.preview, name="preview"),
    path("<slug:slug>/judge/issue/", views.issue, name="issue"),
    path("<slug:slug>/judge/mine/", views.my_records, name="mine"),
    path("<slug:slug>/records/<int:record_id>/", views.record_card, name="record"),
    path("<slug:slug>/records/<int:record_id>/undo/", views.record_undo, name="record-undo"),
]
