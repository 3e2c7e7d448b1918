// Names and text as Playwright's ai-mode snapshot has them where Chromium's
// AX tree says otherwise (issue 26's six differences): a name kept beside a
// decorative child, a control inside its own <label for>, CSS generated
// content, an <svg><title> naming its button, a <meter>'s text and an inert
// subtree. The server through the official MCP client on real Chromium, the
// page tests/fixtures/conformance/names.html on 127.0.0.1; `make
// conformance` compares the same page with Playwright line by line.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { conformanceSuite, snapshotWithoutRefs } from './helpers.js';

describe('names and text as Playwright shows them', () => {
  const suite = conformanceSuite();
  let snap;
  const snapshot = async () => {
    if (snap) return snap;
    const { server, site } = suite();
    const nav = await server.call('browser_navigate', { url: site.url('/names.html') });
    assert.equal(nav.isError, false, nav.text);
    snap = snapshotWithoutRefs(nav.text);
    return snap;
  };

  test('a name is kept when the element also has a decorative child', async () => {
    const s = await snapshot();
    // The empty ::after icon span gave an (empty) part of the name, and it
    // is not shown, so the name stays; the strong child is shown too.
    assert.match(s, /- button "Expand model":\n\s+- strong: Expand model\n/);
    assert.match(s, /- link "Read the docs":\n\s+- \/url: \/docs\n/);
    assert.match(s, /- heading "Settings" \[level=2\]\n/);
  });

  test('a control inside its own <label for> is not named by its own value', async () => {
    const s = await snapshot();
    assert.match(s, /- combobox:\n\s+- option "\/api - Local" \[selected\]\n/);
    assert.doesNotMatch(s, /combobox "/);
    assert.match(s, /- text: Host\n\s+- textbox "Host": localhost\n/);
  });

  test('CSS generated content joins the text as the DOM has it', async () => {
    const s = await snapshot();
    assert.match(s, /- button "★Star"\n/);
    assert.match(s, /- text: Name \*\n\s+- textbox "Name \*"\n/);
    assert.match(s, /- paragraph: "Note: Backups run at night\."\n/);
  });

  test('an <svg><title> names the button around it', async () => {
    const s = await snapshot();
    assert.match(s, /- button "Delete":\n\s+- img "Delete"\n/);
  });

  test('a <meter> shows its text', async () => {
    const s = await snapshot();
    assert.match(s, /- meter: 60%\n/);
  });

  test('an inert subtree is shown, named', async () => {
    const s = await snapshot();
    assert.match(
      s,
      /- region "Inert":\n\s+- generic:\n\s+- paragraph: Behind the dialog\.\n\s+- button "Inert action"/,
    );
  });
});

describe('the page behind a modal dialog', () => {
  const suite = conformanceSuite();

  test('is shown, named, with the dialog in its place', async () => {
    const { server, site } = suite();
    const nav = await server.call('browser_navigate', { url: site.url('/dialogs.html') });
    assert.equal(nav.isError, false, nav.text);
    const s = snapshotWithoutRefs(nav.text);
    // Chromium's tree holds only the modal dialog; Playwright's ai mode
    // shows the whole page (an agent sees what the dialog covers).
    assert.match(s, /- main:\n\s+- heading "Dialogs" \[level=1\]\n\s+- button "Open"\n/);
    assert.match(s, /- alertdialog "Confirm":\n/);
    assert.match(s, /- dialog:\n\s+- generic:\n\s+- paragraph: Modal content\n\s+- button "OK" \[active\]/);
  });
});
