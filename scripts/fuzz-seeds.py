#!/usr/bin/env python3
"""Writes the committed seed corpora fuzz/seeds/<target>/ from tests/fixtures.

Run from the repository root after changing the fixtures or an input
format (fuzz/src/checks.rs, fuzz/src/ffi_checks.rs describe the formats).
"""
import pathlib
import shutil

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIX = ROOT / "tests" / "fixtures"
SEEDS = ROOT / "fuzz" / "seeds"
SEP = b"\xff"  # argument separator of the detector and ffi inputs


def read(rel: str) -> bytes:
    return (FIX / rel).read_bytes()


def write(target: str, name: str, data: bytes) -> None:
    d = SEEDS / target
    d.mkdir(parents=True, exist_ok=True)
    (d / name).write_bytes(data)


ARIA = ["dialog.yml", "shadow.yml", "form.yml", "misc.yml", "lists.yml",
        "table.yml", "nav.yml", "shop.boxes.yml", "case06.after.yml"]
FINGERPRINTS = ["case09.before.json", "case09.after.json", "case05.after.json",
                "case08.after.json"]
PAIRS = [("diff/case01_one_line", ".before.yml", ".after.yml"),
         ("diff/case03_modal_inserted", ".before.yml", ".after.yml"),
         ("diff/case06_whitespace_only", ".before.yml", ".after.yml"),
         ("aria/case06", ".before.yml", ".after.yml"),
         ("aria/case08", ".before.yml", ".after.yml")]
OPTIONS = [
    b'{"includeSnapshot": true, "snapshotOptions": {"selector": "e12", "maxLength": 2000, "format": "aria"}}',
    b'{"consoleOptions": {"levels": ["error", "warn"], "maxMessages": 5, "patterns": ["^Failed .*"], "removeDuplicates": true}}',
    b'{"imageOptions": {"quality": 60, "maxWidth": 800, "maxHeight": 600, "format": "jpeg"}, "includeTabs": false}',
    b'{"diffOptions": {"enabled": true, "threshold": 0.3, "format": "split", "maxDiffLines": 40, "ignoreWhitespace": false, "context": 2}}',
    b'{"enabled": true, "threshold": 0.1, "format": "minimal", "context": 0}',
    b'{"format": "yaml", "identity": "content", "roles": ["button", "link"], "prune": true, "scope": "list \\"Cart\\"", "compareBounds": true, "lenient": true}',
    b'{"maxStoredBytes": 1048576, "maxInputBytes": 4096, "deadlineMs": 50}',
    b'{"scope": "main", "depth": "detailed"}',
    b'{"includeConsole": true, "consoleOptions": {"patterns": ["(a+)+$"]}}',
]


def main() -> None:
    shutil.rmtree(SEEDS, ignore_errors=True)
    for f in ARIA:
        write("aria_parse", f, read("aria/" + f))
    for f in FINGERPRINTS:
        write("fingerprint_json", f, read("fingerprint/" + f))
    for i, o in enumerate(OPTIONS):
        write("expectation_json", f"options{i:02}.json", o)

    # detector: 7 knob bytes (format, context, threshold, maxDiffLines,
    # flags, store cap u16), then old 0xFF new.
    knobs = [bytes([0, 3, 25, 49, 0, 0, 0]), bytes([1, 1, 255, 200, 2, 0, 0]),
             bytes([2, 0, 128, 10, 8, 0x10, 0])]
    for (stem, a, b), k in zip(PAIRS, knobs * 2):
        name = stem.split("/")[1]
        write("detector", name, k + read(stem + a) + SEP + read(stem + b))

    # ffi_json: function byte, NULL mask, arguments separated by 0xFF.
    aria_a, aria_b = read("aria/case06.before.yml"), read("aria/case06.after.yml")
    fp_a, fp_b = read("fingerprint/case09.before.json"), read("fingerprint/case09.after.json")
    ffi = {
        "detector": bytes([0, 0]) + SEP.join([OPTIONS[6], b"tab1", aria_a, aria_b, OPTIONS[4]]),
        "diff_compare": bytes([1, 0]) + SEP.join([aria_a, aria_b, OPTIONS[4]]),
        "diff_format": bytes([2, 0]) + SEP.join([aria_a, aria_b, b'{"format": "split"}']),
        "expectation_validate": bytes([3, 0]) + OPTIONS[0],
        "expectation_merge": bytes([4, 0]) + SEP.join([b"browser_click", b"[" + OPTIONS[1] + b", " + OPTIONS[3] + b"]"]),
        "response_render": bytes([5, 0]) + SEP.join([
            b'{"result": "Clicked", "snapshot": {"aria": "- button \\"Go\\" [ref=e1]"}, "console": [{"level": "error", "text": "boom"}]}',
            b"browser_click", b'[{"diffOptions": {"enabled": true}}]', b"tab1"]),
        "tree_parse": bytes([6, 0x80]) + aria_a,
        "tree_print": bytes([7, 0]) + b'[{"role": "list", "name": "Cart", "children": [{"role": "listitem", "value": "a"}]}]',
        "tree_diff": bytes([8, 0]) + SEP.join([aria_a, aria_b, OPTIONS[5]]),
        "fingerprint_expression": bytes([9, 0]) + OPTIONS[7],
        "fingerprint_compare": bytes([10, 0]) + SEP.join([fp_a, fp_b, b"info"]),
        "baseline_store": bytes([11, 0]) + SEP.join([b"home", fp_a, fp_b, b"warning"]),
    }
    for name, data in ffi.items():
        write("ffi_json", name, data)


if __name__ == "__main__":
    main()
