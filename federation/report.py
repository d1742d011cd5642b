"""The event file in the judge report: a section with its download link (``FederationConfig``
registers it, since ``judging`` never imports this app)."""

from django.utils.translation import gettext_lazy as _

from judging.report import ReportSection
from tournaments.models import Tournament


def read(*, tournament: Tournament, whole: bool) -> dict[str, object]:
    return {"finished": tournament.is_finished, "printed": whole}


SECTION = ReportSection(
    key="federation",
    title=_("Event file for the federation"),
    template="federation/report_event_file.html",
    read=read,
    order=200,
)
