from django.contrib import admin

from core.readonly_admin import ReadOnlyModelAdmin, ReadOnlyTabularInline
from tournaments.models import Game, Match, Registration, Round, Staff, Tournament


class StaffInline(ReadOnlyTabularInline):
    model = Staff


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyModelAdmin):
    list_display = ["name", "date", "level", "uses_decklists", "best_of", "status"]
    inlines = [StaffInline]


@admin.register(Registration)
class RegistrationAdmin(ReadOnlyModelAdmin):
    list_display = ["player", "tournament", "status", "prize_eligible"]
    list_filter = ["tournament", "status"]


class GameInline(ReadOnlyTabularInline):
    model = Game


@admin.register(Match)
class MatchAdmin(ReadOnlyModelAdmin):
    list_display = [
        "round",
        "table",
        "player1",
        "player2",
        "player1_wins",
        "player2_wins",
        "ended_at",
    ]
    inlines = [GameInline]


admin.site.register(Round, ReadOnlyModelAdmin)
