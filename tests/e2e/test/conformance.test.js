// Snapshots as Playwright shows them (its ariaSnapshot({mode: 'ai'}), what
// @playwright/mcp prints), where Chromium's AX tree alone says otherwise:
// the server through the official MCP client on real Chromium, the pages of
// tests/fixtures/conformance on 127.0.0.1. The whole-corpus comparison with
// Playwright itself is `make conformance`.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { conformanceSuite, refOf, snapshotWithoutRefs } from './helpers.js';

describe('snapshots as Playwright shows them', () => {
  const suite = conformanceSuite();

  test('select options: not disabled once the select is enabled, the chosen one [selected]', async () => {
    const { server, site } = suite();
    const nav = await server.call('browser_navigate', { url: site.url('/select-states.html') });
    assert.equal(nav.isError, false, nav.text);
    let snap = snapshotWithoutRefs(nav.text);
    // A disabled select: the select is [disabled], its options are not (as
    // Playwright has it); the first option is the selected one.
    assert.match(snap, /- combobox "Status" \[disabled\]:\n\s+- option "available" \[selected\]\n\s+- option "pending"\n\s+- option "sold"\n/);
    assert.match(snap, /- listbox "Sizes" \[disabled\]:\n\s+- option "S"\n\s+- option "M"\n\s+- option "L"\n/);

    const enable = await server.call('browser_click', { ref: refOf(nav.text, 'button "Enable"') });
    assert.equal(enable.isError, false, enable.text);
    const status = refOf(enable.text, 'combobox "Status"');
    const chose = await server.call('browser_select_option', { ref: status, values: ['sold'] });
    assert.equal(chose.isError, false, chose.text);
    const sizes = refOf(chose.text, 'listbox "Sizes"');
    const many = await server.call('browser_select_option', { ref: sizes, values: ['M', 'L'] });
    assert.equal(many.isError, false, many.text);

    snap = snapshotWithoutRefs((await server.call('browser_snapshot', {})).text);
    assert.match(snap, /- combobox "Status":\n\s+- option "available"\n\s+- option "pending"\n\s+- option "sold" \[selected\]\n/);
    assert.match(snap, /- listbox "Sizes":\n\s+- option "S"\n\s+- option "M" \[selected\]\n\s+- option "L" \[selected\]\n/);
    assert.match(snap, /- paragraph: "Chosen: sold"/);
    assert.doesNotMatch(snap, /\[disabled\]/);
  });

  test('tables: table, rowgroup, row, cell, columnheader, rowheader; no Chromium-internal roles', async () => {
    const { server, site } = suite();
    const nav = await server.call('browser_navigate', { url: site.url('/tables.html') });
    assert.equal(nav.isError, false, nav.text);
    const snap = snapshotWithoutRefs(nav.text);
    assert.doesNotMatch(snap, /LayoutTable|DescriptionList/);
    // The caption is shown, so the table's name (taken from it) is not; a
    // row's name from its cells is left to the cells.
    assert.match(snap, /- table:\n\s+- caption: Orders\n\s+- rowgroup:\n\s+- row:\n\s+- columnheader "Order"\n\s+- columnheader "Customer"\n\s+- columnheader "Total"\n/);
    assert.match(snap, /- row:\n\s+- rowheader "1001"\n\s+- cell "Ada"\n\s+- cell "\$12\.00"\n/);
    // A cell's name from a link inside it is left to the link.
    assert.match(snap, /- cell:\n\s+- link "Grace":\n\s+- \/url: \/c\/grace\n/);
    // A table without headers (a layout table to Chromium) is a table.
    assert.match(snap, /- table:\n\s+- rowgroup:\n\s+- row:\n\s+- cell "Plain"\n\s+- cell "cells"\n\s+- row:\n\s+- cell\n\s+- cell "second row"\n/);
    // role="presentation": its rows and cells are text.
    assert.match(snap, /\n\s+- text: Layout only\n/);
    assert.match(snap, /- table "Custom":\n\s+- rowgroup:\n\s+- row:\n\s+- columnheader "Key"\n\s+- columnheader "Value"\n\s+- rowgroup:\n\s+- row:\n\s+- rowheader "tea"\n\s+- cell "green"\n/);
    assert.match(snap, /- grid "Seats":\n\s+- row:\n\s+- gridcell "A1" \[selected\]\n\s+- gridcell "A2"\n/);
    // A description list is a generic around its terms and definitions.
    assert.match(snap, /- generic:\n\s+- term: Term\n\s+- definition: Definition\n/);
  });

  test('forms: labels, placeholders, date inputs, checkbox and radio states', async () => {
    const { server, site } = suite();
    const nav = await server.call('browser_navigate', { url: site.url('/forms.html') });
    assert.equal(nav.isError, false, nav.text);
    const snap = snapshotWithoutRefs(nav.text);
    assert.match(snap, /- generic:\n\s+- text: Empty text\n\s+- textbox "Empty text":\n\s+- \/placeholder: Type here\n/);
    assert.match(snap, /- textbox "Placeholder only"\n/);
    assert.match(snap, /- textbox "Date": 2024-05-01\n/);
    assert.match(snap, /- textbox "Colour": "#ff0000"\n/);
    assert.match(snap, /- generic:\n\s+- checkbox "Subscribe" \[checked\]\n\s+- text: Subscribe\n/);
    assert.match(snap, /- checkbox "Mixed box" \[checked=mixed\]\n/);
    assert.match(snap, /- group "Delivery":\n\s+- generic:\n\s+- radio "Standard" \[checked\]\n/);
    // A submit button's value is its name, not repeated as its text.
    assert.match(snap, /- button "Send"\n/);
    // A password the page filled in (value="secret") is masked, unlike
    // Playwright (docs/DECISIONS.md D27).
    assert.match(snap, /- textbox "Password": "\[password, 6 characters\]"\n/);
    assert.doesNotMatch(nav.text, /secret/);
  });

  test('links keep their raw href; list markers and <summary> as Playwright reads them', async () => {
    const { server, site } = suite();
    const nav = await server.call('browser_navigate', { url: site.url('/widgets.html') });
    assert.equal(nav.isError, false, nav.text);
    const snap = snapshotWithoutRefs(nav.text);
    assert.match(snap, /- link "a link":\n\s+- \/url: "#x"\n/);
    assert.match(snap, /- link "Elsewhere":\n\s+- \/url: https:\/\/example\.com\/x\n/);
    assert.doesNotMatch(snap, /[•◦]/);
    assert.match(snap, /- treeitem "src" \[expanded\] \[level=1\]:\n\s+- text: src\n\s+- group:\n\s+- treeitem "main\.rs" \[level=2\] \[selected\]\n/);
    assert.match(snap, /- group:\n\s+- generic "Open details"\n\s+- paragraph: Shown content\n/);
    assert.match(snap, /- paragraph: Line oneLine two\n/);
    // A role=slider div has no value to show (only inputs do).
    assert.match(snap, /- slider "Zoom"\n/);
  });

  test('the body is the root, [active] while nothing in it has focus; iframes show their document', async () => {
    const { server, site } = suite();
    const widgets = snapshotWithoutRefs((await server.call('browser_navigate', { url: site.url('/widgets.html') })).text);
    assert.match(widgets, /^```yaml\n- generic \[active\]:\n {2}- banner:\n/);
    assert.match(widgets, /\n {2}- main:\n/);
    assert.match(widgets, /\n {2}- contentinfo:\n/);
    // A body around one element is unwrapped, as a generic is.
    const nav = await server.call('browser_navigate', { url: site.url('/iframes.html') });
    assert.equal(nav.isError, false, nav.text);
    const snap = snapshotWithoutRefs(nav.text);
    assert.match(snap, /^```yaml\n- main:\n/);
    assert.match(snap, /- iframe:\n\s+- generic:\n\s+- heading "Inside" \[level=2\]\n\s+- generic:\n\s+- text: Name\n\s+- textbox "Name": Ada\n\s+- button "Frame button"\n/);
    assert.match(snap, /- iframe:\n\s+- generic:\n\s+- heading "Same-origin frame" \[level=2\]\n\s+- link "Frame link":\n\s+- \/url: \/x\n\s+- list:\n\s+- listitem: One\n/);
  });
});
