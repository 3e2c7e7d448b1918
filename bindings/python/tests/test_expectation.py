"""Expectation: validation naming the field, deep merge, per-tool defaults."""

from __future__ import annotations

import json

import pytest

import response_diff as rd


def test_fields_are_optional_and_round_trip() -> None:
    e = rd.Expectation()
    assert e.to_dict() == {} and e.include_snapshot is None
    e = rd.Expectation(include_console=False, snapshot_options={"max_length": 500, "selector": "e12"})
    assert e.to_dict() == {"includeConsole": False, "snapshotOptions": {"selector": "e12", "maxLength": 500}}
    assert e.include_console is False
    assert e.snapshot_options == {"selector": "e12", "maxLength": 500}
    assert rd.Expectation(e.to_dict()) == e
    assert rd.Expectation(e.to_json()) == e
    assert rd.Expectation(e) == e
    assert json.loads(e.to_json()) == e.to_dict()


def test_nested_diff_options_object() -> None:
    e = rd.Expectation(diff_options=rd.DiffOptions(format="split"))
    assert e.diff_options is not None and e.diff_options["format"] == "split"


@pytest.mark.parametrize(
    ("value", "field"),
    [
        ({"consoleOptions": {"maxMessages": -1}}, "expectation.consoleOptions.maxMessages"),
        ({"consoleOptions": {"maxMessages": 100_001}}, "expectation.consoleOptions.maxMessages"),
        ({"consoleOptions": {"patterns": ["ok", "("]}}, "expectation.consoleOptions.patterns[1]"),
        ({"consoleOptions": {"levels": ["error", "loud"]}}, "expectation.consoleOptions.levels[1]"),
        ({"snapshotOptions": {"maxLength": 0}}, "expectation.snapshotOptions.maxLength"),
        ({"snapshotOptions": {"format": "pdf"}}, "expectation.snapshotOptions.format"),
        ({"imageOptions": {"quality": 101}}, "expectation.imageOptions.quality"),
        ({"diffOptions": {"threshold": 1.5}}, "expectation.diffOptions.threshold"),
        ({"includeSnapshots": True}, "expectation.includeSnapshots"),
        ({"includeSnapshot": "yes"}, "expectation.includeSnapshot"),
    ],
)
def test_invalid_values_name_the_field(value: dict, field: str) -> None:
    with pytest.raises(rd.InvalidOptionError) as err:
        rd.Expectation(value)
    assert err.value.field == field
    assert str(err.value).startswith(f"invalid option `{field}`")


def test_unknown_key_lists_the_allowed_ones() -> None:
    with pytest.raises(rd.InvalidOptionError) as err:
        rd.Expectation(include_snapshots=True)
    assert "includeSnapshot" in err.value.message


def test_tool_defaults() -> None:
    assert rd.Expectation.tool_default("browser_click").include_snapshot is True
    assert rd.Expectation.tool_default("browser_take_screenshot").include_snapshot is False
    ev = rd.Expectation.tool_default("evaluate")
    assert (ev.include_snapshot, ev.include_console) == (False, True)


def test_resolve_keeps_tool_defaults_and_merges_layers_deeply() -> None:
    global_ = {"diffOptions": {"enabled": True, "format": "minimal"}, "consoleOptions": {"levels": ["error"]}}
    step = rd.Expectation(diff_options={"context": 1}, include_console=False)
    r = rd.Expectation.resolve("browser_click", global_, step)
    assert r.include_snapshot is True  # click's default, not switched off by other fields
    assert r.include_console is False
    assert r.diff_options == {
        "enabled": True,
        "threshold": 0.1,
        "format": "minimal",
        "maxDiffLines": 50,
        "ignoreWhitespace": True,
        "context": 1,
    }
    assert r.console_options is not None and r.console_options["levels"] == ["error"]
    assert r.console_options["maxMessages"] == 10


def test_merge_is_field_by_field_and_returns_a_new_object() -> None:
    a = rd.Expectation(diff_options={"enabled": True, "format": "split"})
    b = a.merge({"diffOptions": {"context": 0}})
    assert a.diff_options == {"enabled": True, "format": "split"}
    assert b.diff_options == {"enabled": True, "format": "split", "context": 0}


def test_layer_errors_name_the_layer() -> None:
    with pytest.raises(rd.InvalidOptionError) as err:
        rd.Expectation.resolve("browser_click", {}, {"diffOptions": {"context": -2}})
    assert err.value.field == "layers[1].diffOptions.context"


def test_json_syntax_error_is_a_parse_error() -> None:
    with pytest.raises(rd.ParseError) as err:
        rd.Expectation('{\n  "includeSnapshot": true,\n  "includeTabs": ]\n}')
    assert err.value.line == 3
    assert err.value.what == "JSON"
