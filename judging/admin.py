from django.contrib import admin

from core.readonly_admin import ReadOnlyModelAdmin, ReadOnlyTabularInline
from judging.models import (
    GuidelineEdition,
    Infraction,
    InvestigationStatement,
    PenaltyAcknowledgement,
    PenaltyChange,
    PenaltyRecord,
    TournamentGuideline,
)


class InfractionInline(ReadOnlyTabularInline):
    model = Infraction
    fields = ["code", "name", "availability"]


@admin.register(GuidelineEdition)
class GuidelineEditionAdmin(ReadOnlyModelAdmin):
    list_display = ["name", "slug", "based_on"]
    inlines = [InfractionInline]


@admin.register(Infraction)
class InfractionAdmin(ReadOnlyModelAdmin):
    list_display = [
        "code",
        "name",
        "edition",
        "penalty_amateur",
        "penalty_professional",
        "penalty_highest",
        "availability",
    ]
    list_filter = ["edition", "availability"]


admin.site.register(TournamentGuideline, ReadOnlyModelAdmin)


class PenaltyChangeInline(ReadOnlyTabularInline):
    model = PenaltyChange


# Written once through the services and never changed: shown, like the history, only to read.
class AcknowledgementInline(ReadOnlyTabularInline):
    model = PenaltyAcknowledgement


class StatementInline(ReadOnlyTabularInline):
    model = InvestigationStatement


@admin.register(PenaltyRecord)
class PenaltyRecordAdmin(ReadOnlyModelAdmin):
    list_display = ["registration", "infraction", "rank", "because", "status", "issued_at"]
    list_filter = ["tournament", "status", "rank"]
    inlines = [PenaltyChangeInline, AcknowledgementInline, StatementInline]
