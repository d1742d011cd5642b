from django.contrib import admin

from players.models import MembershipSuspension, Player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "membership_id", "city"]
    search_fields = ["name", "membership_id"]


@admin.register(MembershipSuspension)
class MembershipSuspensionAdmin(admin.ModelAdmin):
    list_display = ["player", "starts_on", "ends_on", "lifted_on"]
