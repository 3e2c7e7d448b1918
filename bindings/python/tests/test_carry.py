"""Refs carried over across re-rendered snapshots, and snapshot patches
(removal runs, focus, restore by reference) applied back."""

from __future__ import annotations

import threading

import pytest

import response_diff as rd


def cart(items: list[str], base: int) -> str:
    """A cart rendered from scratch: every node id is new."""
    lines = [f'- list "Cart" [ref=n{base}]:']
    for i, item in enumerate(items):
        node = base + 1 + 2 * i
        lines.append(f"  - listitem [ref=n{node}]:")
        lines.append(f"    - text: {item}")
        lines.append(f'    - button "Remove" [ref=n{node + 1}]')
    return "\n".join(lines)


def refs(snapshot: str) -> list[str]:
    return [e.ref for e in _walk(rd.parse_snapshot(snapshot).roots) if e.ref]


def _walk(elements: list[rd.Element]) -> list[rd.Element]:
    out: list[rd.Element] = []
    for e in elements:
        out.append(e)
        out.extend(_walk(e.children))
    return out


def test_a_rerendered_list_keeps_its_refs_and_adds_one_element() -> None:
    c = rd.RefCarrier()
    first = c.carry("tab", cart(["Tea", "Cake"], 100))
    assert (first.carried, first.fresh) == (0, 5)
    again = c.carry("tab", cart(["Tea", "Cake"], 500))
    assert again.snapshot == first.snapshot
    assert again.refs == {"n500": "n100", "n501": "n101", "n502": "n102", "n503": "n103", "n504": "n104"}
    assert list(again.refs) == ["n500", "n501", "n502", "n503", "n504"]  # document order
    grown = c.carry("tab", cart(["Tea", "Cake", "Pie"], 900))
    assert (grown.carried, grown.fresh) == (5, 2)
    p = rd.snapshot_patch(again.snapshot, grown.snapshot)
    assert p is not None
    assert p.text == '+ after [n103]:\n  - listitem [ref=n905]:\n    - text: Pie\n    - button "Remove" [ref=n906]'
    assert rd.apply_snapshot_patch(again.snapshot, p.text) == grown.snapshot
    assert grown.ref_of("n905") == "n905" and grown.ref_of("nope") is None
    assert isinstance(grown.tree, rd.Tree)
    assert grown.to_dict()["carried"] == 5


def test_removed_and_restored_gets_its_old_ref_and_is_restored_by_reference() -> None:
    c = rd.RefCarrier(views_per_key=4)
    full = c.carry("tab", cart(["Tea", "Cake", "Pie"], 100)).snapshot
    filtered = c.carry("tab", cart(["Cake"], 200)).snapshot
    assert refs(filtered) == ["n100", "n103", "n104"]
    # The filter removed two rows: one line.
    p = rd.snapshot_patch(full, filtered)
    assert p is not None and p.text == "- [n101 n105]" and p.removed == 6
    back = c.carry("tab", cart(["Tea", "Cake", "Pie"], 300))
    assert back.snapshot == full and back.fresh == 0
    # The rows come back as the agent last saw them: by reference.
    seen = [full, filtered]
    p = rd.snapshot_patch(filtered, back.snapshot, seen=seen)
    assert p is not None
    assert p.text == "+ first in [n100]: [n101] as last shown\n+ after [n103]: [n105] as last shown"
    assert (p.added, p.restored) == (6, 6)
    assert rd.apply_snapshot_patch(filtered, p.text, seen) == full
    with pytest.raises(rd.ParseError, match=r"\[n101\] is restored `as last shown` but no seen snapshot has it"):
        rd.apply_snapshot_patch(filtered, p.text)
    explicit = rd.snapshot_patch(filtered, back.snapshot, seen=seen, restore=False)
    assert explicit is not None and explicit.restored == 0 and "text: Tea" in explicit.text
    assert rd.apply_snapshot_patch(filtered, explicit.text) == full


def test_duplicates_map_in_order_and_refs_never_move_to_other_content() -> None:
    c = rd.RefCarrier()
    c.carry("tab", cart(["Tea", "Tea", "Tea"], 100))
    two = c.carry("tab", cart(["Tea", "Tea"], 200))
    assert refs(two.snapshot) == ["n100", "n101", "n102", "n103", "n104"]
    # Different rows: the row refs are never reused for other text.
    other = c.carry("tab", cart(["Cake", "Pie"], 300))
    rows = [r for r in refs(other.snapshot) if r in ("n101", "n103", "n105")]
    assert rows == []


def test_focus_moves_cost_one_line() -> None:
    old = '- textbox "Body" [active] [ref=e1]: a long request body\n- button "Send" [ref=e2]'
    new = '- textbox "Body" [ref=e1]: a long request body\n- button "Send" [active] [ref=e2]'
    p = rd.snapshot_patch(old, new)
    assert p is not None and p.text == "~ focus [e2]"
    assert rd.apply_snapshot_patch(old, p.text) == new


def test_carry_refs_without_a_store_and_bad_input() -> None:
    r = rd.carry_refs(['- button "Go" [ref=e1]'], '- button "Go" [ref=z9]\n- button "New" [ref=e1]')
    assert r.refs == {"z9": "e1", "e1": "e10"}  # new refs count on from the largest id
    assert rd.carry_refs([], rd.parse_snapshot('- link "A" [ref=e5]'), stable_ids=True).carried == 0
    with pytest.raises(rd.InvalidOptionError, match="node id `x` is on two elements"):
        rd.carry_refs([], '- button "A" [ref=x]\n- button "B" [ref=x]')
    with pytest.raises(rd.InvalidOptionError, match="viewsPerKey"):
        rd.RefCarrier(views_per_key=0)
    c = rd.RefCarrier()
    c.carry("a", cart(["Tea"], 1))
    assert c.memory_usage() > 0
    assert c.clear("a") and not c.clear("a")
    assert c.memory_usage() == 0
    # A ref on two elements names neither: no patch, a line diff instead.
    assert rd.snapshot_patch('- button "a" [ref=e1]\n- button "b" [ref=e1]', "- text: b") is None


def test_one_carrier_from_many_threads() -> None:
    c = rd.RefCarrier()
    errors: list[BaseException] = []

    def work(k: int) -> None:
        try:
            for step in range(20):
                r = c.carry(f"tab-{k}", cart(["Tea", "Cake"], 1000 * (step + 1)))
                assert r.snapshot == cart(["Tea", "Cake"], 1000)
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_order_lines_apply_as_the_shared_fixtures_say() -> None:
    """Sorts and drags: `~ order` lines, and moves by reference (issue 29)."""
    import json

    from conftest import fixture

    for case in json.loads(fixture("patches/order.json"))["cases"]:
        p = rd.snapshot_patch(case["old"], case["new"], seen=case["seen"])
        assert p is not None and p.text == case["patch"], case["name"]
        assert rd.apply_snapshot_patch(case["old"], case["patch"], case["seen"]) == case["new"]
    with pytest.raises(rd.ParseError, match="is listed twice"):
        rd.apply_snapshot_patch(case["old"], "~ order [r1 r1]")


def test_moves_across_parents_apply_as_the_shared_fixtures_say() -> None:
    """A subtree moved under another parent costs the line that places it (issue 37)."""
    import json

    from conftest import fixture

    for case in json.loads(fixture("patches/moves.json"))["cases"]:
        p = rd.snapshot_patch(case["old"], case["new"], seen=case["seen"])
        assert p is not None and p.text == case["patch"], case["name"]
        assert p.moved == 1, case["name"]
        for patch in (case["patch"], case["oldStyle"]):
            assert rd.apply_snapshot_patch(case["old"], patch, case["seen"]) == case["new"], case["name"]


def patch_fixture(name: str, at_least: int) -> list:
    """Each case of a shared patch fixture: the writer gives exactly its patch, which rebuilds `new`."""
    import json

    from conftest import fixture

    cases = json.loads(fixture(f"patches/{name}"))["cases"]
    assert len(cases) >= at_least
    for case in cases:
        p = rd.snapshot_patch(case["old"], case["new"], seen=case["seen"])
        assert p is not None and p.text == case["patch"], case["name"]
        assert rd.apply_snapshot_patch(case["old"], case["patch"], case["seen"]) == case["new"], case["name"]
    return cases


def test_elements_without_a_ref_are_patched_by_address_as_the_shared_fixtures_say() -> None:
    """An empty list, a row and its button, a text-only wrapper: no ref, still a patch (issue 42)."""
    patch_fixture("refless.json", 4)
    assert rd.snapshot_patch("- text: a", "- text: b").text == "~ [/1] text: b"
    with pytest.raises(rd.ParseError, match=r"\[e1/1\] is an element with a ref: name it \[e2\]"):
        rd.apply_snapshot_patch("- list [ref=e1]:\n  - listitem [ref=e2]", "- [e1/1]")


def test_devtools_snapshots_are_patched_in_their_own_lines_as_the_shared_fixtures_say() -> None:
    """chrome-devtools-mcp's snapshot text (issue 43): detected, patched by uid, rebuilt byte for byte."""
    cases = patch_fixture("devtools.json", 9)
    old = cases[0]["old"]
    assert rd.parse_snapshot(old).to_aria() == old  # detected: printed back as written


def test_an_element_comes_back_as_last_shown_less_what_went_inside_it_as_the_shared_fixtures_say() -> None:
    """A row restored by reference, less the button it showed on hover (issue 42)."""
    patch_fixture("restores.json", 4)


def test_source_ref_names_the_node_that_now_stands_there() -> None:
    c = rd.RefCarrier(views_per_key=rd.PAGE_VIEWS)
    key = rd.carrier_key("tab1", "http://127.0.0.1/cart#top")
    assert key == "tab1\x1fhttp://127.0.0.1/cart"
    assert rd.PAGE_VIEWS == 16
    c.carry(key, cart(["Tea", "Cake"], 1))
    # Rebuilt from scratch: the agent keeps n3 for Tea's button, now node n23.
    assert c.carry(key, cart(["Tea", "Cake"], 21)).ref_of("n23") == "n3"
    assert c.source_ref(key, "n3") == "n23"
    assert c.source_ref(key, "n23") is None  # never shown to the agent
    c.carry(key, cart(["Tea"], 41))
    assert c.source_ref(key, "n5") is None  # Cake's button left
    assert c.source_ref("tab2\x1fhttp://127.0.0.1/cart", "n3") is None
