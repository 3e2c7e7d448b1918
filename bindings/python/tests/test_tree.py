"""Accessibility trees on the captured fixtures (tests/fixtures/aria): parse
and print round trip, JSON, selectors, tree diff in every format against the
Rust goldens, filters, and `since` reads."""

from __future__ import annotations

import json

import pytest

import response_diff as rd
from conftest import CORE_SNAPSHOTS, FIXTURES, fixture, golden, same_text

PAGES = sorted(p.name for p in (FIXTURES / "aria").glob("*.yml"))


def case(n: int) -> tuple[rd.Tree, rd.Tree]:
    return (
        rd.parse_snapshot(fixture(f"aria/case{n:02}.before.yml")),
        rd.parse_snapshot(fixture(f"aria/case{n:02}.after.yml")),
    )


@pytest.mark.parametrize("name", PAGES)
def test_parse_print_round_trip_and_json(name: str) -> None:
    text = fixture(f"aria/{name}")
    tree = rd.parse_snapshot(text)
    assert tree.to_aria() == text == str(tree)
    again = rd.Tree.from_json(tree.to_json())
    assert again == tree
    assert rd.Tree.from_json(tree.to_list()) == tree
    assert len(tree) > 0


def test_elements_and_find() -> None:
    tree = rd.parse_snapshot(fixture("aria/case03.before.yml"))
    box = tree.find('searchbox "Search products"')
    assert box is not None
    assert (box.role, box.name, box.value) == ("searchbox", "Search products", "running shoes")
    assert box.ref is not None and tree.find(box.ref) == box
    assert tree.find("e999999") is None
    link = rd.parse_snapshot('- link "Home" [ref=e7] [cursor=pointer]:\n  - /url: /').roots[0]
    assert link.props == {"url": "/"} and link.states == {"cursor": "pointer"}
    assert link.to_dict() == {"role": "link", "name": "Home", "ref": "e7", "states": {"cursor": "pointer"}, "props": {"url": "/"}}
    heading = rd.parse_snapshot('- heading "Hi" [level=1] [checked]').roots[0]
    assert heading.states == {"level": "1", "checked": True}
    nav = rd.parse_snapshot(fixture("aria/shop.yml")).find("navigation")
    assert nav is not None and len(nav) == 1 + sum(len(c) for c in nav.children)
    boxed = rd.parse_snapshot(fixture("aria/shop.boxes.yml"))
    assert any(e.bounds is not None for e in boxed.roots[0].children) or boxed.roots[0].bounds is not None


def test_malformed_line_is_a_parse_error_with_its_line_unless_lenient() -> None:
    text = '- main:\n  - button "Save" [ref=e1]\n  - link "Open\n'
    with pytest.raises(rd.ParseError) as err:
        rd.parse_snapshot(text)
    assert err.value.line == 3 and err.value.what == "aria snapshot"
    lenient = rd.parse_snapshot(text, lenient=True)
    assert len(lenient) == 3


def test_case01_duplicate_rows_are_one_removal() -> None:
    for identity in ("refs", "content"):
        d = rd.tree_diff(*case(1), identity=identity)
        assert [e.role for e in d.removed] == ["row"] or len(d.to_dict()["diff"]["removed"]) == 1
        assert d.added == [] and d.changed == []


def test_case02_renamed_button_is_a_change() -> None:
    d = rd.tree_diff(*case(2), identity="content")
    (c,) = d.changed
    assert (c.field, c.from_, c.to) == ("name", "Add to cart", "Added to cart")
    d = rd.tree_diff(*case(2))
    assert [c.field for c in d.changed] == ["name", "ref"]
    assert d.to_agent().splitlines()[0] == '~ [e56] button "Added to cart" (was "Add to cart") (ref was e25)'


def test_case03_value_change_and_case04_insertion() -> None:
    (c,) = rd.tree_diff(*case(3)).changed
    assert (c.ref, c.field, c.from_, c.to) == ("e14", "value", "running shoes", "trail shoes")
    assert "field='value'" in repr(c)
    d = rd.tree_diff(*case(4))
    assert [e.value for e in d.added] == ["Honeycrisp"] and d.removed == [] and d.changed == []


def test_case05_renumbered_refs() -> None:
    before, after = case(5)
    d = rd.tree_diff(before, after, {"identity": "content"})
    assert d.is_empty() and d.refs_renumbered == 54 and d.unchanged_count == len(after)
    assert len(rd.tree_diff(before, after).changed) == 54


def test_case06_closed_dialog() -> None:
    d = rd.tree_diff(*case(6))
    assert len(d.removed) == 7  # every removed element; renderers show the topmost
    assert d.to_agent() == '- [e6] dialog "Delete account?"\n# 8 elements unchanged'


def test_goldens_in_every_format() -> None:
    d = rd.tree_diff(*case(7))
    ts, since = 1_700_000_000_456, 1_700_000_000_123
    assert same_text(d.to_agent(), golden(CORE_SNAPSHOTS / "tree_diff__case07_agent.snap"))
    assert same_text(d.to_yaml(ts, since), golden(CORE_SNAPSHOTS / "tree_diff__case07_yaml.snap"))
    assert same_text(d.to_json(ts, since), golden(CORE_SNAPSHOTS / "tree_diff__case07_json.snap"))
    assert d.render("agent") == d.to_agent() == str(d)
    assert d.render("yaml", ts, since) == d.to_yaml(ts, since)
    assert d.render("json", ts, since) == d.to_json(ts, since)
    assert d.to_dict(ts, since) == json.loads(d.to_json(ts, since))
    assert d.to_dict()["diff"]["unchanged_count"] == d.unchanged_count == 55
    d8 = rd.tree_diff(*case(8))
    assert same_text(d8.to_agent(), golden(CORE_SNAPSHOTS / "tree_diff__case08_agent.snap"))
    with pytest.raises(rd.InvalidOptionError) as err:
        d.render("xml")  # type: ignore[arg-type]
    assert err.value.field == "format"


def test_requested_format_ts_and_lenient() -> None:
    before, after = case(7)
    d = rd.tree_diff(before, after, format="yaml")
    assert d.format == "yaml" and d.ts > 1_600_000_000_000
    assert str(d) == d.to_yaml() == d.render() and str(d).startswith(f"ts: {d.ts}\nsince: null\n")
    assert rd.tree_diff(before, after, {"format": "json"}).to_dict()["diff"]["unchanged_count"] == 55
    with pytest.raises(rd.InvalidOptionError) as err:
        rd.tree_diff(before, after, format="xml")
    assert err.value.field == "treeDiffOptions.format"
    broken = '- list:\n  - listitem "a\n'
    with pytest.raises(rd.ParseError):
        rd.tree_diff(broken, broken)
    assert rd.tree_diff(broken, broken, lenient=True).is_empty()
    # Text that starts with `{` is the model's JSON, as in the C ABI.
    assert rd.tree_diff(before.roots[0].to_json(), before).unchanged_count == len(before.roots[0])


def test_text_input_and_filters() -> None:
    page = '- generic [ref=e1]:\n  - list "Cart" [ref=e2]:\n    - listitem [ref=e3]:\n      - button "Remove" [ref=e4]\n  - button "Pay" [ref=e5]'
    after = page.replace('"Pay"', '"Pay now"')
    assert rd.tree_diff(page, after, roles=["button"]).unchanged_count == 1
    assert rd.tree_diff(page, after, scope='list "Cart"').is_empty()
    pruned = rd.tree_diff(page, page, prune=True)
    assert pruned.unchanged_count == 4  # the unnamed generic wrapper is dropped
    with pytest.raises(rd.InvalidOptionError) as err:
        rd.tree_diff(page, after, identity="dom")
    assert err.value.field == "treeDiffOptions.identity"
    with pytest.raises(rd.InvalidOptionError) as err:
        rd.tree_diff(page, after, roles="button")
    assert err.value.field == "treeDiffOptions.roles"
    with pytest.raises(rd.InvalidOptionError) as err:
        rd.tree_diff(page, after, colour="red")
    assert err.value.field == "treeDiffOptions.colour"
    with pytest.raises(rd.InvalidOptionError) as err:
        rd.tree_diff(page, after, scope="div.cart")
    assert err.value.field == "treeDiffOptions.scope"
    with pytest.raises(rd.ParseError):
        rd.tree_diff(page, '- link "broken')


def test_since_reads() -> None:
    store = rd.SinceStore()
    v1, v2 = case(4)
    r1 = store.read("tab-1", v1)
    assert r1.diff is None and r1.tree == v1 and r1.notice is None and r1.since is None
    r2 = store.read("tab-1", v2, r1.ts, format="yaml")
    assert r2.ts > r1.ts and r2.since == r1.ts and r2.tree is None
    assert r2.diff is not None and [e.value for e in r2.diff.added] == ["Honeycrisp"]
    assert r2.render("agent").startswith(f"# ts {r2.ts}, changes since {r1.ts}\n")
    assert str(r2) == r2.render() == r2.render("yaml") and r2.diff.ts == r2.ts
    assert r2.to_dict()["diff"]["added"][0]["value"] == "Honeycrisp"
    assert r2.render("yaml").startswith(f"ts: {r2.ts}\nsince: {r1.ts}\n")
    # An unknown ts is not an error: the full tree and a notice.
    r3 = store.read("tab-1", v2, 42)
    assert r3.diff is None and r3.notice is not None and "42" in r3.notice
    assert r3.to_dict()["notice"] == r3.notice
    store.clear("tab-1")
    assert store.read("tab-1", v2, r2.ts).notice is not None
