// Tokens of a diffed response, all-in (o200k_base, gpt-tokenizer), on the
// bench site: the envelope around a one-line page change and an unchanged
// read (issue 15 item 3). A measurement, not a test:
//
//   node bench/envelope.mjs [--print]   (RESPONSE_DIFF_BIN picks the binary)
//
// The server runs as an operator would configure it for diffing
// (`--default-expectation '{"diffOptions": {"enabled": true}}'`).
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

import { refOf, serveSite, startServer } from '../test/helpers.js';

const print = process.argv.includes('--print');
const site = await serveSite();
const server = await startServer(['--default-expectation', '{"diffOptions": {"enabled": true}}']);
const rows = [];
async function step(name, tool, args) {
  const r = await server.call(tool, args);
  if (r.isError) throw new Error(`${name}: ${r.text}`);
  rows.push([name, countTokens(r.text)]);
  if (print) console.log(`--- ${name} (${countTokens(r.text)} tokens)\n${r.text}\n`);
  return r.text;
}
try {
  const shop = await step('navigate to the shop', 'browser_navigate', { url: site.url('/index.html') });
  await step('unchanged read (shop)', 'browser_snapshot', {});
  await step('add to cart', 'browser_click', { ref: refOf(shop, 'button "Add to cart"') });
  const form = await step('go to Sign up', 'browser_navigate', { url: site.url('/signup.html') });
  await step('type the name (one changed line)', 'browser_type', { ref: refOf(form, 'textbox "Full name"'), text: 'Ada Lovelace' });
  await step('unchanged read (sign-up)', 'browser_snapshot', {});
  await step('type the email (one changed line)', 'browser_type', { ref: refOf(form, 'textbox "Email"'), text: 'ada@example.com' });
  await step('unchanged read again', 'browser_snapshot', {});
} finally {
  await server.close();
  await site.close();
}
const w = Math.max(...rows.map((r) => r[0].length));
for (const [name, n] of rows) console.log(`${name.padEnd(w)}  ${String(n).padStart(6)}`);
