// Content Chromium's AX tree prunes and Playwright's ai-mode snapshot shows
// (visible aria-hidden subtrees, read from the DOM), a control named by a
// hidden <label for>, and typing into an input whose page replaced the
// element constructors (Polymer's webcomponents.js). The server through the
// official MCP client on real Chromium, pages of tests/fixtures/conformance
// on 127.0.0.1; `make conformance` compares the same pages with Playwright.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { conformanceSuite, refOf, snapshotWithoutRefs } from './helpers.js';

describe('pruned and wrapped content as Playwright shows it', () => {
  const suite = conformanceSuite();

  test('a visible aria-hidden gutter: its cells and a nameless fold button that acts by ref', async () => {
    const { server, site } = suite();
    const nav = await server.call('browser_navigate', { url: site.url('/aria-hidden.html') });
    assert.equal(nav.isError, false, nav.text);
    const snap = snapshotWithoutRefs(nav.text);
    // Chromium keeps none of the numbers and names the button from its
    // aria-label; inside aria-hidden Playwright computes no name.
    assert.match(
      snap,
      /- generic \[aria-hidden\]:\n\s+- generic:\n\s+- text: "1"\n\s+- button \[expanded\]\n\s+- generic \[aria-hidden\]: "2"\n\s+- generic \[aria-hidden\]: "3"\n\s+- textbox "Code": "\{\}"\n/,
    );
    assert.doesNotMatch(snap, /Toggle folding/);

    const fold = refOf(nav.text, 'button [expanded]');
    const click = await server.call('browser_click', { ref: fold });
    assert.equal(click.isError, false, click.text);
    const after = snapshotWithoutRefs((await server.call('browser_snapshot', {})).text);
    assert.match(after, /- generic \[aria-hidden\]:\n\s+- generic:\n\s+- text: "1"\n\s+- button \[active\]\n/);
    assert.doesNotMatch(after, /\[expanded\]/);
  });

  test('a laid-out aria-hidden slide Chromium drops whole is shown in its place; a display:none one is not', async () => {
    const { server, site } = suite();
    const nav = await server.call('browser_navigate', { url: site.url('/aria-hidden.html') });
    assert.equal(nav.isError, false, nav.text);
    const snap = snapshotWithoutRefs(nav.text);
    assert.match(
      snap,
      /- paragraph: Shown to everyone\.\n\s+- generic \[aria-hidden\]:\n\s+- heading \[level=2\]: Next slide\n\s+- paragraph:\n\s+- text: Laid out,\n\s+- emphasis: hidden\n\s+- text: from assistive technology\.\n\s+- link:\n\s+- \/url: "#\/2"\n\s+- text: Down\n/,
    );
    // `disabled` is native on form controls only, not on a link.
    assert.doesNotMatch(snap, /link \[disabled\]/);
    assert.doesNotMatch(snap, /Not laid out/);
  });

  test('a control is named by its <label for> even when the label is not displayed', async () => {
    const { server, site } = suite();
    const nav = await server.call('browser_navigate', { url: site.url('/aria-hidden.html') });
    assert.equal(nav.isError, false, nav.text);
    assert.match(snapshotWithoutRefs(nav.text), /- checkbox "Mark all as complete"\n/);
  });

  test('browser_type fills an input on a page whose element constructors are wrapped', async () => {
    const { server, site } = suite();
    const nav = await server.call('browser_navigate', { url: site.url('/wrapped-input.html') });
    assert.equal(nav.isError, false, nav.text);
    const input = refOf(nav.text, 'textbox "What needs to be done?"');
    const typed = await server.call('browser_type', { ref: input, text: 'Buy milk', submit: true });
    assert.equal(typed.isError, false, typed.text);
    assert.match(typed.text, /Typed "Buy milk" into textbox "What needs to be done\?" \(e\d+\) and pressed Enter/);
    const snap = snapshotWithoutRefs((await server.call('browser_snapshot', {})).text);
    assert.match(snap, /- list:\n\s+- listitem: Buy milk\n/);
  });
});
