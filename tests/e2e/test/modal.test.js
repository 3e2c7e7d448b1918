// The agent decides (issue 25): a dialog or a file chooser the page opens
// is reported as a modal state and answered by the agent
// (browser_handle_dialog, browser_file_upload), uploads only come from the
// allowed roots, a tab the page opens is reported (not switched to), and a
// download is saved and reported. Real Chromium, a real MCP client, pages
// on 127.0.0.1; no assertion on time.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { FULL, refOf, section, serveSite, startServer } from './helpers.js';

const page = (body) => `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`;

const PAGES = {
  '/confirm': page(`
    <h1>Cart</h1>
    <ul id="items"><li>Apple</li><li>Pear</li><li>Plum</li></ul>
    <button onclick="if (confirm('Delete 3 items?')) { document.getElementById('items').remove(); document.getElementById('note').textContent = 'Deleted'; } else { document.getElementById('note').textContent = 'Kept 3 items'; }">Delete all</button>
    <p id="note">Idle</p>`),
  '/prompt': page(`
    <button onclick="const n = prompt('Your name?', 'guest'); out.textContent = 'Hello ' + n;">Sign guestbook</button>
    <p id="out">Nobody yet</p>`),
  '/alert-on-load': page(`<script>alert('Welcome aboard')</script><p>Loaded after the alert</p>`),
  '/upload': page(`
    <label>Attachment <input type="file" id="f"></label>
    <p id="out">No file</p>
    <script>
      f.addEventListener('change', async () => {
        const file = f.files[0];
        out.textContent = file ? 'Got ' + file.name + ': ' + (await file.text()).trim() : 'No file';
      });
    </script>`),
  '/popup': page(`<a href="/second" target="_blank">Open help</a>`),
  '/second': page(`<h1>Help center</h1>`),
  '/download': page(`<a href="/export.csv">Export CSV</a>`),
};

const CSV = 'id,name\n1,Ada\n2,Grace\n';

describe('modal states, uploads, tabs and downloads', () => {
  let site;
  let server;
  let root;
  let outside;
  let out;

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'rd-upload-root-'));
    outside = mkdtempSync(join(tmpdir(), 'rd-upload-outside-'));
    out = mkdtempSync(join(tmpdir(), 'rd-output-'));
    writeFileSync(join(root, 'report.txt'), 'quarterly numbers\n');
    writeFileSync(join(outside, 'secret.txt'), 'private key\n');
    symlinkSync(join(outside, 'secret.txt'), join(root, 'innocent.txt'));
    site = await serveSite(undefined, PAGES, {
      '/export.csv': (req, res) => {
        res.writeHead(200, { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="report.csv"' });
        res.end(CSV);
      },
    });
    server = await startServer([...FULL, '--upload-root', root, '--output-dir', out, '--action-timeout', '10'], { log: process.env.RD_LOG || 'info' });
    process.on('exit', () => { if (process.env.RD_LOG) console.error(server.log()); });
  });

  after(async () => {
    await server?.close();
    await site?.close();
    for (const dir of [root, outside, out]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function open(path) {
    const r = await server.call('browser_navigate', { url: site.url(path) });
    assert.equal(r.isError, false, r.text);
    return r.text;
  }

  test('a confirm answered no: the page says so and was never changed', async () => {
    const nav = await open('/confirm');
    const click = await server.call('browser_click', { ref: refOf(nav, 'button "Delete all"') });
    assert.equal(click.isError, false, click.text);
    assert.match(section(click.text, 'Modal state') ?? '', /- \["confirm" dialog with message "Delete 3 items\?"\]: can be handled by browser_handle_dialog/, click.text);
    // While it is open, a tool that needs the page is refused at once.
    const snap = await server.call('browser_snapshot');
    assert.equal(snap.isError, true, snap.text);
    assert.match(snap.text, /browser_snapshot does not handle the modal state.*browser_handle_dialog/);
    const answer = await server.call('browser_handle_dialog', { accept: false });
    assert.equal(answer.isError, false, answer.text);
    assert.match(section(answer.text, 'Result'), /Dismissed the "confirm" dialog/);
    assert.equal(section(answer.text, 'Modal state'), null, answer.text);
    const shown = section(answer.text, 'Page snapshot');
    assert.match(shown, /Kept 3 items/);
    assert.match(shown, /listitem \[ref=e\d+\]: Apple/);
    assert.match(shown, /listitem \[ref=e\d+\]: Plum/);
    // Nothing left to answer.
    const again = await server.call('browser_handle_dialog', { accept: true });
    assert.equal(again.isError, true);
    assert.match(again.text, /no dialog to answer/);
  });

  test('a prompt answered with a text', async () => {
    const nav = await open('/prompt');
    const click = await server.call('browser_click', { ref: refOf(nav, 'button "Sign guestbook"') });
    assert.match(section(click.text, 'Modal state') ?? '', /"prompt" dialog with message "Your name\?" and default text "guest"/, click.text);
    const answer = await server.call('browser_handle_dialog', { accept: true, promptText: 'Ada' });
    assert.equal(answer.isError, false, answer.text);
    assert.match(section(answer.text, 'Result'), /Accepted the "prompt" dialog with "Ada"/);
    assert.match(section(answer.text, 'Page snapshot'), /Hello Ada/);
  });

  test('a dialog during page load does not hold the navigation', async () => {
    const nav = await server.call('browser_navigate', { url: site.url('/alert-on-load') });
    // With a 10 s action timeout, waiting for the load would end in
    // "did not finish loading"; the call returns with the dialog instead.
    assert.equal(nav.isError, false, nav.text);
    assert.doesNotMatch(nav.text, /did not finish|timed out/);
    assert.match(section(nav.text, 'Modal state') ?? '', /"alert" dialog with message "Welcome aboard"/, nav.text);
    assert.match(section(nav.text, 'Page state'), /alert-on-load/);
    const answer = await server.call('browser_handle_dialog', { accept: true });
    assert.equal(answer.isError, false, answer.text);
    assert.match(section(answer.text, 'Page snapshot'), /Loaded after the alert/);
  });

  test('a batch stops at a dialog and reports it', async () => {
    const nav = await open('/confirm');
    const r = await server.call('browser_batch_execute', {
      steps: [
        { tool: 'browser_click', arguments: { ref: refOf(nav, 'button "Delete all"') } },
        { tool: 'browser_snapshot' },
      ],
    });
    assert.match(r.text, /Stopped after step 1: the page waits for an answer \(browser_handle_dialog\); step 2 did not run/);
    assert.match(r.text, /"confirm" dialog with message "Delete 3 items\?"/);
    const answer = await server.call('browser_handle_dialog', { accept: true });
    assert.match(section(answer.text, 'Page snapshot'), /Deleted/);
  });

  test('upload: a file inside the root; outside it and a symlink out are refused', async () => {
    const nav = await open('/upload');
    const click = await server.call('browser_click', { ref: refOf(nav, 'button "Attachment"') });
    assert.equal(click.isError, false, click.text);
    assert.match(section(click.text, 'Modal state') ?? '', /File chooser for one file\]: can be handled by browser_file_upload/, click.text);
    const snap = await server.call('browser_snapshot');
    assert.equal(snap.isError, true);
    assert.match(snap.text, /browser_file_upload/);

    const secret = join(outside, 'secret.txt');
    const refused = await server.call('browser_file_upload', { paths: [secret] });
    assert.equal(refused.isError, true, refused.text);
    assert.ok(refused.text.includes(secret), refused.text);
    assert.match(refused.text, /outside the upload roots .*--upload-root/);

    const link = join(root, 'innocent.txt');
    const viaLink = await server.call('browser_file_upload', { paths: [link] });
    assert.equal(viaLink.isError, true, viaLink.text);
    assert.ok(viaLink.text.includes(`${link} (it resolves to`), viaLink.text);
    assert.match(viaLink.text, /outside the upload roots/);

    const ok = await server.call('browser_file_upload', { paths: [join(root, 'report.txt')] });
    assert.equal(ok.isError, false, ok.text);
    assert.match(section(ok.text, 'Result'), /Set 1 file on the file chooser: report.txt/);
    assert.match(section(ok.text, 'Page snapshot'), /Got report.txt: quarterly numbers/);
    assert.doesNotMatch(ok.text, /private key/);
  });

  test('a popup tab is reported, selected and closed', async () => {
    const nav = await open('/popup');
    const click = await server.call('browser_click', { ref: refOf(nav, 'link "Open help"') });
    assert.equal(click.isError, false, click.text);
    assert.match(section(click.text, 'Result'), /Opened a new tab 1 \(.*\/second\)/);
    // The agent decides: the current tab stays.
    assert.match(section(click.text, 'Open tabs'), /- 0: \(current\) .*\/popup/);
    assert.match(section(click.text, 'Open tabs'), /- 1: .*\/second/);
    const sel = await server.call('browser_tabs', { action: 'select', index: 1 });
    assert.equal(sel.isError, false, sel.text);
    assert.match(section(sel.text, 'Page state'), /\/second/);
    assert.match(section(sel.text, 'Page snapshot'), /heading "Help center"/);
    const closed = await server.call('browser_tabs', { action: 'close' });
    assert.equal(closed.isError, false, closed.text);
    assert.match(section(closed.text, 'Open tabs'), /- 0: \(current\) .*\/popup/);
    assert.doesNotMatch(section(closed.text, 'Open tabs'), /second/);
  });

  test('a download is saved and reported with name, size and path', async () => {
    const nav = await open('/download');
    const click = await server.call('browser_click', { ref: refOf(nav, 'link "Export CSV"') });
    assert.equal(click.isError, false, click.text);
    const saved = join(out, 'report.csv');
    const downloads = section(click.text, 'Downloads');
    assert.ok(downloads, click.text);
    assert.ok(downloads.includes(`- report.csv (${CSV.length} bytes) → ${saved}`), downloads);
    assert.ok(existsSync(saved));
    assert.equal(readFileSync(saved, 'utf8'), CSV);
    // A URL that is itself a file to save: the navigation reports it.
    const direct = await server.call('browser_navigate', { url: site.url('/export.csv') });
    assert.equal(direct.isError, false, direct.text);
    const again = join(out, 'report (1).csv');
    assert.ok(section(direct.text, 'Downloads')?.includes(`- report.csv (${CSV.length} bytes) → ${again}`), direct.text);
    assert.equal(readFileSync(again, 'utf8'), CSV);
  });
});

describe('--dialogs dismiss (unattended runs)', () => {
  let site;
  let server;
  before(async () => {
    site = await serveSite(undefined, PAGES);
    server = await startServer([...FULL, '--dialogs', 'dismiss']);
  });
  after(async () => {
    await server?.close();
    await site?.close();
  });

  test('the server dismisses the dialog and says so', async () => {
    const nav = await server.call('browser_navigate', { url: site.url('/confirm') });
    const click = await server.call('browser_click', { ref: refOf(nav.text, 'button "Delete all"') });
    assert.equal(click.isError, false, click.text);
    assert.match(click.text, /A dialog opened: confirm "Delete 3 items\?" \(dismissed\)/);
    assert.equal(section(click.text, 'Modal state'), null);
    assert.match(section(click.text, 'Page snapshot'), /Kept 3 items/);
  });
});
