"""Guideline editions as data: loading the shipped file, deriving editions, adding infractions.

The shipped edition lives in ``judging/data/guideline_edition.json``. The data migration and the
``load_guideline`` command both read it through ``load_edition``, which takes the model classes as
arguments so that a migration can hand in its historical models.
"""

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import DomainError
from judging.models import (
    Availability,
    GuidelineEdition,
    Infraction,
    PenaltyRecord,
    TournamentGuideline,
)
from judging.penalties import Rank
from judging.selectors import edition_for
from tournaments.models import Level, Tournament

SHIPPED_EDITION_FILE = Path(__file__).resolve().parent / "data" / "guideline_edition.json"
LEVEL_FIELDS = {
    Level.AMATEUR: "penalty_amateur",
    Level.PROFESSIONAL: "penalty_professional",
    Level.HIGHEST: "penalty_highest",
}


def penalty_fields(penalties: Mapping[str, str | None]) -> dict[str, int | None]:
    """Turn ``{"amateur": "caution", ...}`` into model fields; a missing level or null is "-"."""
    unknown = set(penalties) - set(LEVEL_FIELDS)
    if unknown:
        raise DomainError(
            "unknown_level",
            _("Unknown rules-enforcement level: %(levels)s.") % {"levels": ", ".join(unknown)},
        )
    fields: dict[str, int | None] = {}
    for level, field in LEVEL_FIELDS.items():
        key = penalties.get(level)
        if key is None or key == "-":
            fields[field] = None
            continue
        try:
            fields[field] = int(Rank.from_key(key))
        except (ValueError, AttributeError):
            raise DomainError(
                "unknown_penalty", _("Unknown penalty: %(penalty)s.") % {"penalty": key}
            ) from None
    return fields


def infraction_fields(data: Mapping[str, Any], sections: Mapping[str, str]) -> dict[str, Any]:
    section = str(data.get("section") or data["code"].split(".")[0])
    return {
        "section": section,
        "section_name": sections.get(section, ""),
        "name": data["name"],
        "availability": data.get("availability", Availability.ANY),
        "description": data.get("description", ""),
        "sub_items": data.get("sub_items", []),
        "examples": data.get("examples", []),
        "philosophy": data.get("philosophy", ""),
        "remedy": data.get("remedy", ""),
        **penalty_fields(data.get("penalties", {})),
    }


def read_edition(path: Path = SHIPPED_EDITION_FILE) -> dict[str, Any]:
    """An edition file, with ``section_names``: section number → the name the guideline gives."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    data["section_names"] = {
        section["number"]: section["name"] for section in data.get("sections", [])
    }
    return data


def load_edition(
    path: Path = SHIPPED_EDITION_FILE,
    *,
    edition_model: type[GuidelineEdition] = GuidelineEdition,
    infraction_model: type[Infraction] = Infraction,
) -> GuidelineEdition:
    """Create or update an edition from its file; infractions in the file replace stored ones."""
    data = read_edition(path)
    sections = data["section_names"]
    with transaction.atomic():
        edition, _created = edition_model.objects.update_or_create(
            slug=data["slug"], defaults={"name": data["name"]}
        )
        for item in data["infractions"]:
            infraction_model.objects.update_or_create(
                edition=edition, code=item["code"], defaults=infraction_fields(item, sections)
            )
    return edition


def derive_edition(*, base: GuidelineEdition, slug: str, name: str) -> GuidelineEdition:
    """A copy of an edition that a tournament can extend without changing the original."""
    with transaction.atomic():
        edition = GuidelineEdition.objects.create(slug=slug, name=name, based_on=base)
        Infraction.objects.bulk_create(
            Infraction(
                edition=edition,
                **{
                    field.name: getattr(infraction, field.name)
                    for field in Infraction._meta.concrete_fields
                    if field.name not in {"id", "edition"}
                },
            )
            for infraction in base.infractions.all()
        )
        return edition


def section_of(code: str) -> str:
    """``4.2`` is in section ``4``."""
    return code.strip().split(".")[0]


def known_section_name(*, edition: GuidelineEdition, code: str) -> str:
    """The name of the code's section: as the edition's infractions of that section carry it, or
    as the guideline names it (section 2, «Процессуальные ошибки», has no infraction shipped);
    "" when neither knows it."""
    section = section_of(code)
    named = (
        Infraction.objects.filter(edition=edition, section=section)
        .exclude(section_name="")
        .values_list("section_name", flat=True)
        .first()
    )
    return named or read_edition()["section_names"].get(section, "")


def ensure_section_named(*, edition: GuidelineEdition, code: str, section_name: str) -> None:
    """An infraction that opens a section the guideline here does not name needs its name, so that
    judges see the section's name and not a bare number."""
    if not section_name.strip() and not known_section_name(edition=edition, code=code):
        raise DomainError(
            "section_name_required",
            _("Section %(section)s is new in this guideline: give its name.")
            % {"section": section_of(code)},
        )


def put_infraction(
    *,
    edition: GuidelineEdition,
    code: str,
    name: str,
    penalties: Mapping[str, str | None],
    availability: str | None = None,
    section_name: str = "",
) -> Infraction:
    """Add an infraction to an edition, or replace the one with the same code.

    Without an availability rule, a replaced infraction keeps its own (1.1, 1.2 and 1.4 exist only
    where deck lists are used, rules.md §3, whatever their penalties become); a new one is
    available everywhere. A section the edition or the guideline names keeps that name;
    ``section_name`` names a new one.
    """
    code = code.strip()
    if not code or not name.strip():
        raise DomainError("infraction_incomplete", _("An infraction needs a code and a name."))
    if availability is None:
        existing = Infraction.objects.filter(edition=edition, code=code).first()
        availability = existing.availability if existing else Availability.ANY
    if availability not in Availability.values:
        raise DomainError("unknown_availability", _("Unknown availability rule."))
    section = section_of(code)
    named = known_section_name(edition=edition, code=code) or section_name.strip()
    fields = infraction_fields(
        {"code": code, "name": name.strip(), "penalties": penalties, "availability": availability},
        sections={section: named},
    )
    infraction, _created = Infraction.objects.update_or_create(
        edition=edition, code=code, defaults=fields
    )
    return infraction


def assign_edition(*, tournament: Tournament, edition: GuidelineEdition) -> None:
    TournamentGuideline.objects.update_or_create(
        tournament=tournament, defaults={"edition": edition}
    )


def add_tournament_infraction(
    *,
    tournament: Tournament,
    code: str,
    name: str,
    availability: str | None,
    penalties: Mapping[str, str | None],
    section_name: str = "",
    replacement_reason: str = "",
) -> Infraction:
    """Add an infraction to the tournament's own edition, made from the shared one the first time,
    so that a change here never reaches another tournament.

    A code the edition holds already is replaced for this tournament only, with a written reason
    that the judge report shows (rules.md §3). It cannot be replaced once a record of this
    tournament names it, since that would change what the record means. ``availability`` None
    keeps a replaced infraction's own (``put_infraction``)."""
    with transaction.atomic():
        if not TournamentGuideline.objects.filter(tournament=tournament).exists():
            shared = edition_for(tournament=tournament)
            own = derive_edition(
                base=shared,
                slug=f"{shared.slug}-{tournament.slug}"[:120],
                name=f"{shared.name} · {tournament.name}"[:200],
            )
            assign_edition(tournament=tournament, edition=own)
        edition = edition_for(tournament=tournament)
        code = code.strip()
        existing = Infraction.objects.filter(edition=edition, code=code).first()
        replacement_reason = replacement_reason.strip()
        if existing is not None:
            # The records may name the shared edition's infraction of that code, made before
            # the tournament had its own edition.
            if PenaltyRecord.objects.filter(tournament=tournament, infraction__code=code).exists():
                # Changing an infraction a record names would change what that record means.
                raise DomainError(
                    "infraction_in_use",
                    _(
                        "Infraction %(code)s cannot be replaced: penalties of this tournament "
                        "were issued for it. Add the new rule under a new code."
                    )
                    % {"code": code},
                    field="code",
                )
            if not replacement_reason:
                raise DomainError(
                    "replacement_reason_required",
                    _(
                        "Infraction %(code)s is already in this guideline: write why this "
                        "tournament replaces it (the judge report shows it)."
                    )
                    % {"code": code},
                    field="replacement_reason",
                )
        ensure_section_named(edition=edition, code=code, section_name=section_name)
        infraction = put_infraction(
            edition=edition,
            code=code,
            name=name,
            section_name=section_name,
            availability=availability,
            penalties=penalties,
        )
        if existing is not None:
            infraction.replaced_because = replacement_reason
            infraction.save(update_fields=["replaced_because"])
        return infraction
