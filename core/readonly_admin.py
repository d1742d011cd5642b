"""The admin shows what the services wrote and changes none of it.

Registrations, rounds, matches, games, staff, infractions, penalties and suspensions are written
only through the services, which lock, check the rules and keep the history; an edit in the admin
would go around all three (undo a disqualification with no history entry, rename an infraction
that old records use). The operator reads them here and manages accounts and groups.
"""

from django.contrib import admin
from django.http import HttpRequest


class ReadOnlyModelAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class ReadOnlyTabularInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
