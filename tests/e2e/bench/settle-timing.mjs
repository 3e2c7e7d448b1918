// Wall time of actions on the single-page app, from a real MCP client:
// the four in-page route changes (pushState, replaceState, location.hash,
// a #fragment link), a click that starts nothing (on a heading), one that
// only changes the DOM, and one whose request the server answers after
// 300 ms. A measurement, not a test:
//
//   node bench/settle-timing.mjs [rounds]   (RESPONSE_DIFF_BIN picks the binary)
//
// The server runs with debug logging, which logs how long each settle took
// (`settled in … ms`); their median is printed too (none from a server
// older than the settle logic).
import { refOf, serveSpa, startServer } from '../test/helpers.js';

const rounds = Number(process.argv[2] || 5);
const site = await serveSpa({ delayMs: 300 });
const server = await startServer(['--action-timeout', '30'], { log: 'debug' });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const times = {};
const settles = {};
const settleLines = () => [...server.log().matchAll(/settled in (\d+(?:\.\d+)?) ms/g)].map((m) => Number(m[1]));
async function timed(name, tool, args) {
  const seen = settleLines().length;
  const t = performance.now();
  const r = await server.call(tool, args);
  const ms = performance.now() - t;
  if (r.isError) throw new Error(`${name}: ${r.text}`);
  (times[name] ||= []).push(ms);
  // The server logs before it answers.
  for (const s of settleLines().slice(seen)) (settles[name] ||= []).push(s);
  return r;
}
try {
  const nav = await server.call('browser_navigate', { url: site.url('/') });
  const refs = {
    pushState: refOf(nav.text, 'button "Orders"'),
    replaceState: refOf(nav.text, 'button "Settings"'),
    'location.hash': refOf(nav.text, 'button "Archive"'),
    '#fragment link': refOf(nav.text, 'link "Help"'),
    'click that changes nothing': refOf(nav.text, 'heading "Orders desk"'),
    'DOM-only click': refOf(nav.text, 'button "Add a note"'),
    'click + 300 ms request': refOf(nav.text, 'button "Send request"'),
  };
  for (let i = 0; i < rounds; i++) {
    for (const [name, ref] of Object.entries(refs)) {
      await timed(name, 'browser_click', { ref, expectation: { includeSnapshot: false } });
    }
  }
  console.log(`| action | call, median ms (of ${rounds}) | call, max ms | settle in the server, median ms |`);
  console.log('|---|---:|---:|---:|');
  for (const [name, xs] of Object.entries(times)) {
    const s = settles[name] ? median(settles[name]).toFixed(1) : '–';
    console.log(`| ${name} | ${median(xs).toFixed(0)} | ${Math.max(...xs).toFixed(0)} | ${s} |`);
  }
} finally {
  await server.close();
  await site.close();
}
