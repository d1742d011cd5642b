from django.contrib import admin

from core.readonly_admin import ReadOnlyModelAdmin, ReadOnlyTabularInline
from judging.models import (
    GuidelineEdition,
    Infraction,
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


@admin.register(PenaltyRecord)
class PenaltyRecordAdmin(ReadOnlyModelAdmin):
    list_display = ["registration", "infraction", "rank", "because", "status", "issued_at"]
    list_filter = ["tournament", "status", "rank"]
    inlines = [PenaltyChangeInline]
