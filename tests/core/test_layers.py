"""The layering rules, checked on the source so that they stay true as the app grows.

Views parse, call a service and render: no view module writes to the database itself. Writes are
recognised by the ORM calls that write (and by opening a transaction, which a view only needs when
it chains writes). A read-only use of one of these names would need a good reason to be here.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Every package of the project, so that a new app's views are checked from the day it lands.
APPS = sorted(
    path.parent.name
    for path in ROOT.glob("*/__init__.py")
    if path.parent.name not in {"tests", "benchmarks"}
)
VIEW_MODULES = sorted(
    path
    for app in APPS
    for path in (ROOT / app).glob("*.py")
    if path.name == "views.py" or path.name.endswith("_views.py")
)
WRITING_METHODS = {
    "save",
    "delete",
    "create",
    "bulk_create",
    "bulk_update",
    "get_or_create",
    "update_or_create",
    "create_user",
    "create_superuser",
    "set_password",
    "select_for_update",
    "atomic",
}
QUERYSET_METHODS = {"objects", "filter", "exclude", "all", "select_related", "prefetch_related"}


def _writes(tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in WRITING_METHODS:
            found.append(f"line {node.lineno}: .{node.attr}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            # ``.update(...)`` on a queryset writes; on a dict (a template context) it does not.
            receiver = node.func.value
            if node.func.attr == "update" and (
                (isinstance(receiver, ast.Attribute) and receiver.attr in QUERYSET_METHODS)
                or (
                    isinstance(receiver, ast.Call)
                    and isinstance(receiver.func, ast.Attribute)
                    and receiver.func.attr in QUERYSET_METHODS
                )
            ):
                found.append(f"line {node.lineno}: queryset .update")
        elif isinstance(node, ast.ImportFrom) and node.module == "django.db":
            names = {alias.name for alias in node.names}
            if "transaction" in names:
                found.append(f"line {node.lineno}: imports django.db.transaction")
    return found


def test_there_are_view_modules_to_check():
    names = {str(path.relative_to(ROOT)) for path in VIEW_MODULES}
    assert {"tournaments/views.py", "judging/views.py", "judging/guideline_views.py"} <= names


@pytest.mark.parametrize("path", VIEW_MODULES, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_view_module_writes_to_the_database_except_through_a_service(path):
    assert _writes(ast.parse(path.read_text(encoding="utf-8"))) == []


def test_the_check_recognises_the_writes_it_is_looking_for():
    source = """
from django.db import transaction
def view(request):
    Staff.objects.filter(pk=1).update(role="x")
    Staff.objects.create(role="x")
    staff.delete()
    context.update(notice="fine")
"""
    assert _writes(ast.parse(source)) == [
        "line 2: imports django.db.transaction",
        "line 4: queryset .update",
        "line 5: .create",
        "line 6: .delete",
    ]


TEMPLATES = sorted((ROOT / "templates").rglob("*.html"))


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_template_line_is_over_160_characters(path):
    long = [
        number
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if len(line) > 160
    ]
    assert long == []
