// Wall time of actions on the single-page app, from a real MCP client:
// the four in-page route changes (pushState, replaceState, location.hash,
// a #fragment link), a click that only changes the DOM, and a click whose
// request the server answers after 300 ms. A measurement, not a test:
//
//   node bench/settle-timing.mjs [rounds]   (RESPONSE_DIFF_BIN picks the binary)
//
// With RESPONSE_DIFF_LOG-style debug logging on, the server also logs how
// long each settle took; the medians of those lines are printed too.
import { refOf, serveSpa, startServer } from '../test/helpers.js';

const rounds = Number(process.argv[2] || 5);
const site = await serveSpa({ delayMs: 300 });
const server = await startServer(['--action-timeout', '30'], { log: 'debug' });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const times = {};
async function timed(name, tool, args) {
  const t = performance.now();
  const r = await server.call(tool, args);
  const ms = performance.now() - t;
  if (r.isError) throw new Error(`${name}: ${r.text}`);
  (times[name] ||= []).push(ms);
  return r;
}
try {
  const nav = await server.call('browser_navigate', { url: site.url('/') });
  const refs = {
    pushState: refOf(nav.text, 'button "Orders"'),
    replaceState: refOf(nav.text, 'button "Settings"'),
    'location.hash': refOf(nav.text, 'button "Archive"'),
    '#fragment link': refOf(nav.text, 'link "Help"'),
    'DOM-only click': refOf(nav.text, 'button "Add a note"'),
    'click + 300 ms request': refOf(nav.text, 'button "Send request"'),
  };
  for (let i = 0; i < rounds; i++) {
    for (const [name, ref] of Object.entries(refs)) {
      await timed(name, 'browser_click', { ref, expectation: { includeSnapshot: false } });
    }
  }
  const settles = [...server.log().matchAll(/settled in (\d+(?:\.\d+)?) ms/g)].map((m) => Number(m[1]));
  console.log(`| action | median ms (of ${rounds}) | max ms |`);
  console.log('|---|---:|---:|');
  for (const [name, xs] of Object.entries(times)) {
    console.log(`| ${name} | ${median(xs).toFixed(0)} | ${Math.max(...xs).toFixed(0)} |`);
  }
  if (settles.length) console.log(`\nserver-side settle: median ${median(settles)} ms over ${settles.length} actions`);
} finally {
  await server.close();
  await site.close();
}
