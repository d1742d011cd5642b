from django.contrib import admin

from core.readonly_admin import ReadOnlyModelAdmin
from players.models import MembershipSuspension, Player


@admin.register(Player)
class PlayerAdmin(ReadOnlyModelAdmin):
    list_display = ["name", "membership_id", "city"]
    search_fields = ["name", "membership_id"]


@admin.register(MembershipSuspension)
class MembershipSuspensionAdmin(ReadOnlyModelAdmin):
    list_display = ["player", "starts_on", "ends_on", "lifted_on"]
