from django.contrib import admin

from .models import Analysis, PlayerAnalysis


@admin.register(Analysis)
class AnalysisAdmin(admin.ModelAdmin[Analysis]):
    list_display = ("table", "status", "done", "total", "requested_by", "requested_at", "attempts")
    list_filter = ("status",)
    raw_id_fields = ("table", "requested_by")
    readonly_fields = ("result", "error", "progressed_at")


@admin.register(PlayerAnalysis)
class PlayerAnalysisAdmin(admin.ModelAdmin[PlayerAnalysis]):
    list_display = ("analysis", "user", "seat", "decisions", "mean_loss", "finished_at")
    raw_id_fields = ("analysis", "user")
