"""A URL that answers with a whole page or, to HTMX, with a fragment tells caches so."""

import ast

import pytest
from django.urls import reverse

from tests.core.test_layers import ROOT, VIEW_MODULES


def pages(desk):
    record = desk.issue(0, "1.4", moment="between_matches")
    slug = desk.tournament.slug
    return [
        (desk.floor, reverse("judging:judge-home", args=[slug])),
        (desk.floor, reverse("judging:record", args=[slug, record.pk])),
        (desk.head, reverse("judging:console", args=[slug]) + "?fragment=penalty-log"),
    ]


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_pages_with_fragments_vary_on_the_htmx_header(client, desk, htmx):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    for user, url in pages(desk):
        client.force_login(user)

        response = client.get(url, **headers)

        assert response.status_code == 200, url
        assert "HX-Request" in response.headers["Vary"], url
        assert response.content.decode().lstrip().startswith("<!doctype") is not htmx, url


def _name(node: ast.expr) -> str:
    target = node.func if isinstance(node, ast.Call) else node
    return getattr(target, "id", getattr(target, "attr", ""))


def _reads_htmx(function: ast.FunctionDef) -> bool:
    return any(
        isinstance(node, ast.Attribute) and node.attr == "htmx" for node in ast.walk(function)
    )


def _varies(function: ast.FunctionDef) -> bool:
    return any(
        _name(decorator) == "vary_on_headers"
        and isinstance(decorator, ast.Call)
        and any(
            isinstance(arg, ast.Constant) and arg.value == "HX-Request" for arg in decorator.args
        )
        for decorator in function.decorator_list
    )


def test_every_view_that_may_answer_a_get_with_a_fragment_varies_on_the_htmx_header():
    """Checked on the source, so a new view cannot forget it: a view that reads ``request.htmx``
    and answers GET says ``Vary: HX-Request`` (a POST-only view's answer is never cached)."""
    missing = [
        f"{path.relative_to(ROOT)}:{function.name}"
        for path in VIEW_MODULES
        for function in ast.parse(path.read_text(encoding="utf-8")).body
        if isinstance(function, ast.FunctionDef)
        and function.decorator_list
        and _reads_htmx(function)
        and not any(_name(decorator) == "require_POST" for decorator in function.decorator_list)
        and not _varies(function)
    ]
    assert missing == []
