from django.contrib import admin

from judging.models import (
    GuidelineEdition,
    Infraction,
    PenaltyChange,
    PenaltyRecord,
    TournamentGuideline,
)


class InfractionInline(admin.StackedInline):
    model = Infraction
    extra = 1


@admin.register(GuidelineEdition)
class GuidelineEditionAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "based_on"]
    inlines = [InfractionInline]


@admin.register(Infraction)
class InfractionAdmin(admin.ModelAdmin):
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


admin.site.register(TournamentGuideline)


class PenaltyChangeInline(admin.TabularInline):
    model = PenaltyChange
    extra = 0
    can_delete = False
    readonly_fields = [field.name for field in PenaltyChange._meta.fields]

    def has_add_permission(self, request: object, obj: object = None) -> bool:
        return False


@admin.register(PenaltyRecord)
class PenaltyRecordAdmin(admin.ModelAdmin):
    """Read-only: penalties are written by the judging services, never by hand."""

    list_display = ["registration", "infraction", "rank", "because", "status", "issued_at"]
    list_filter = ["tournament", "status", "rank"]
    inlines = [PenaltyChangeInline]

    def has_add_permission(self, request: object) -> bool:
        return False

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: object, obj: object = None) -> bool:
        return False
