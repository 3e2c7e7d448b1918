// After an action the server waits for what the action started, and only
// that: the request a click sends (the test server answers it after 1.5 s),
// the load of a real navigation, nothing for an in-page route change
// (pushState, replaceState, location.hash, a #fragment link), nothing for a
// long poll the page opened before the action. The single-page app is
// tests/fixtures/spa; its API is in helpers.js (serveSpa). No assertion is
// on wall time: each checks what the response says (bench/settle-timing.mjs
// measures the times).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { FULL, refOf, section, serveSpa, startServer } from './helpers.js';

const diffs = { diffOptions: { enabled: true } };
const PENDING = /still loading|still waiting|has not started/;

/** The result line and the page URL of a response. */
function resultOf(text) {
  return section(text, 'Result') ?? '';
}
/** Waits for a condition the test does not control the timing of. */
async function until(cond, what, ms = 30_000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) assert.fail(`not within ${ms} ms: ${what}`);
    await new Promise((ok) => setTimeout(ok, 20));
  }
}
function urlOf(text) {
  const m = (section(text, 'Page state') ?? '').match(/- Page URL: (\S+)/);
  assert.ok(m, `no page URL in:\n${text}`);
  return m[1];
}

describe('settling after an action (single-page app)', () => {
  let site;
  let server;

  before(async () => {
    site = await serveSpa({ delayMs: 1500 });
    server = await startServer(FULL);
  });

  after(async () => {
    await server?.close();
    await site?.close();
  });

  async function open() {
    const nav = await server.call('browser_navigate', { url: site.url('/'), expectation: diffs });
    assert.equal(nav.isError, false, nav.text);
    // The page loaded again looks as the agent last saw it (its refs are
    // carried over), so the diffed answer may be "No changes": read it in
    // full, diffs off, for the refs (the diff chain does not move).
    const full = await server.call('browser_snapshot', { expectation: { diffOptions: { enabled: false } } });
    assert.match(full.text, /- heading "Orders desk" \[level=1\]/);
    return full.text;
  }

  test('a click that sends a slow request answers with what the reply rendered', async () => {
    const page = await open();
    const send = refOf(page, 'button "Send request"');
    const click = await server.call('browser_click', { ref: send });
    assert.equal(click.isError, false, click.text);
    assert.ok(site.log.includes('GET /api/slow?n=1'), site.log.join('\n'));
    assert.doesNotMatch(resultOf(click.text), PENDING);
    const snap = section(click.text, 'Page snapshot');
    assert.match(snap, /- paragraph \[ref=e\d+\]: "Response 200: done after 1500 ms"/);
    // The button the handler disabled for the request is enabled again.
    assert.match(snap, new RegExp(`- button "Send request" \\[ref=${send}\\]`));
    assert.doesNotMatch(snap, /Sending…/);
  });

  test('pushState, replaceState, location.hash and a #fragment link: the same page, the new URL, a diff', async () => {
    const page = await open();
    const origin = site.origin;
    const steps = [
      ['button "Orders"', `${origin}/orders`, /listitem \[ref=e\d+\]: "Order 1041: 2 tins of Sencha"/],
      ['button "Settings"', `${origin}/settings`, /listitem \[ref=e\d+\]: "Ship from: Leeds"/],
      ['button "Archive"', `${origin}/settings#archive`, /listitem \[ref=e\d+\]: "Order 1001: delivered"/],
      ['link "Help"', `${origin}/settings#help`, /listitem \[ref=e\d+\]: "Phone: 0113 496 0000"/],
    ];
    for (const [target, url, shows] of steps) {
      const ref = refOf(page, target);
      const click = await server.call('browser_click', { ref, expectation: diffs });
      assert.equal(click.isError, false, click.text);
      const result = resultOf(click.text);
      assert.doesNotMatch(result, PENDING, `${target}: ${result}`);
      assert.doesNotMatch(result, /the page navigated/, `${target}: ${result}`);
      assert.equal(urlOf(click.text), url, target);
      // Diffed against what the agent saw, not sent whole.
      assert.match(click.text, /### Page snapshot \((patch|diff since the previous snapshot)\)/, `${target}:\n${click.text}`);
      assert.match(click.text, shows, target);
    }
    // The refs of the first snapshot still act: it is the same document.
    const again = await server.call('browser_click', { ref: refOf(page, 'button "Orders"'), expectation: diffs });
    assert.equal(again.isError, false, again.text);
    assert.equal(urlOf(again.text), `${origin}/orders`);

    // browser_navigate to a fragment of the current document: nothing
    // loads, and the view the hashchange handler renders is in the response.
    const frag = await server.call('browser_navigate', { url: `${origin}/orders#archive`, expectation: diffs });
    assert.equal(frag.isError, false, frag.text);
    assert.equal(urlOf(frag.text), `${origin}/orders#archive`);
    assert.match(frag.text, /### Page snapshot \((patch|diff since the previous snapshot)\)/, frag.text);
    // The archive was shown two responses ago: its rows come back printed
    // or by reference (`[e… e…] as last shown`, restoring is on by default).
    assert.match(frag.text, /listitem \[ref=e\d+\]: "Order 1001: delivered"|\+ first in \[e\d+\]: \[e\d+ e\d+\] as last shown/, frag.text);

    // Back to a pushState entry: the same document again, no load to wait for.
    const back = await server.call('browser_navigate_back', { expectation: diffs });
    assert.equal(back.isError, false, back.text);
    assert.match(resultOf(back.text), /^Went back/);
    assert.equal(urlOf(back.text), `${origin}/orders`);
    assert.match(back.text, /### Page snapshot \((patch|diff since the previous snapshot)\)/, back.text);
  });

  test('a link to another document and a form post still wait for the new page', async () => {
    let page = await open();
    const link = await server.call('browser_click', { ref: refOf(page, 'link "Another page"') });
    assert.equal(link.isError, false, link.text);
    assert.match(resultOf(link.text), /\(the page navigated\)$/m);
    assert.equal(urlOf(link.text), site.url('/other.html'));
    assert.match(section(link.text, 'Page snapshot'), /- heading "Another page" \[level=1\]/);

    // Back to a document the browser may restore from its cache.
    const back = await server.call('browser_navigate_back');
    assert.equal(back.isError, false, back.text);
    assert.equal(urlOf(back.text), site.url('/'));
    assert.match(section(back.text, 'Page snapshot'), /- heading "Orders desk" \[level=1\]/);

    page = await open();
    const post = await server.call('browser_click', { ref: refOf(page, 'button "Post the form"') });
    assert.equal(post.isError, false, post.text);
    assert.match(resultOf(post.text), /\(the page navigated\)$/m);
    assert.equal(urlOf(post.text), site.url('/posted.html'));
    assert.match(section(post.text, 'Page snapshot'), /- heading "Form received" \[level=1\]/);
  });

  test('a navigation waits for what the new page fetches and renders right after its load', async () => {
    const nav = await server.call('browser_navigate', { url: site.url('/loads-data.html') });
    assert.equal(nav.isError, false, nav.text);
    assert.doesNotMatch(resultOf(nav.text), PENDING);
    const snap = section(nav.text, 'Page snapshot');
    assert.match(snap, /- paragraph \[ref=e\d+\]: 3 members/);
    assert.match(snap, /- listitem \[ref=e\d+\]: Edsger/);
    // The page has no icon: the browser's own /favicon.ico 404 is not the
    // page's error and is not in its console.
    assert.doesNotMatch(nav.text, /favicon/);
    // A page that opens a long poll as it loads is answered without a note:
    // its poll is its own, not the navigation's.
    const desk = await server.call('browser_navigate', { url: site.url('/') });
    assert.equal(desk.isError, false, desk.text);
    assert.doesNotMatch(resultOf(desk.text), PENDING);
    assert.match(section(desk.text, 'Page snapshot'), /- heading "Orders desk" \[level=1\]/);
  });

  test('a long poll opened before the action neither delays nor marks it', async () => {
    const page = await open();
    // The poll is in flight before the action (the page opens it as it loads).
    await until(() => site.log.some((l) => l.startsWith('GET /api/poll')), 'the page opened its long poll');
    const note = await server.call('browser_click', { ref: refOf(page, 'button "Add a note"') });
    assert.equal(note.isError, false, note.text);
    assert.doesNotMatch(resultOf(note.text), PENDING);
    assert.match(section(note.text, 'Page snapshot'), /- listitem \[ref=e\d+\]: Note 1/);
    // Still held: it was in flight during the click.
    assert.match(section(note.text, 'Page snapshot'), /Long poll: waiting\./);
    const send = await server.call('browser_click', { ref: refOf(page, 'button "Send request"') });
    assert.doesNotMatch(resultOf(send.text), PENDING);
    assert.doesNotMatch(send.text, /api\/poll/);
    assert.match(section(send.text, 'Page snapshot'), /Response 200: done after 1500 ms/);
  });

  test('a long poll answered and opened again during the action is not the action\'s work', async () => {
    const page = await open();
    await until(() => site.log.some((l) => l.startsWith('GET /api/poll')), 'the page opened its long poll');
    const polls = () => site.log.filter((l) => l.startsWith('GET /api/poll')).length;
    const before = polls();
    // The nudge answers the poll at once and itself 200 ms later; the page
    // opens the poll again meanwhile.
    const nudge = await server.call('browser_click', { ref: refOf(page, 'button "Nudge the poll"') });
    assert.equal(nudge.isError, false, nudge.text);
    assert.doesNotMatch(resultOf(nudge.text), PENDING);
    assert.match(section(nudge.text, 'Page snapshot'), /Nudged, news \d+/);
    await until(() => polls() > before, 'the page opened the poll again');
  });
});

describe('settling: a request that outlives the action timeout (--action-timeout 3)', () => {
  let site;
  let server;

  before(async () => {
    site = await serveSpa();
    server = await startServer([...FULL, '--action-timeout', '3']);
  });

  after(async () => {
    await server?.close();
    await site?.close();
  });

  test('the result names the request still in flight, and the page is read as it is', async () => {
    const nav = await server.call('browser_navigate', { url: site.url('/') });
    assert.equal(nav.isError, false, nav.text);
    const click = await server.call('browser_click', { ref: refOf(nav.text, 'button "Send a request that never ends"') });
    assert.equal(click.isError, false, click.text);
    assert.match(resultOf(click.text), /\(still waiting for 1 request: GET \/api\/never\)$/m);
    assert.doesNotMatch(click.text, /api\/poll/);
    assert.match(section(click.text, 'Page snapshot'), /Waiting for the never-ending request…/);
    // The next action does not inherit the old request.
    const note = await server.call('browser_click', { ref: refOf(nav.text, 'button "Add a note"') });
    assert.equal(note.isError, false, note.text);
    assert.doesNotMatch(resultOf(note.text), PENDING);
  });
});
