from django.contrib import admin

from tournaments.models import Game, Match, Registration, Round, Staff, Tournament


class StaffInline(admin.TabularInline):
    model = Staff
    extra = 1


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "date", "level", "uses_decklists", "best_of", "status"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [StaffInline]


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ["player", "tournament", "status", "prize_eligible"]
    list_filter = ["tournament", "status"]


class GameInline(admin.TabularInline):
    model = Game
    extra = 0


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
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


admin.site.register(Round)
