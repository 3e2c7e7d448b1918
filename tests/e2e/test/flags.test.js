// Switching from @playwright/mcp by changing one word: its command line,
// its PLAYWRIGHT_MCP_* variables and its config file, read from the pinned
// package (tests/e2e/package.json pins @playwright/mcp 0.0.83), against
// `response-diff mcp` on real Chromium through the official MCP client.
//
// Every flag of `@playwright/mcp --help` is given to our server with a
// plausible value: it must either work (the server starts, lists its
// tools and navigates to a page) or be refused at start-up with one line
// that names the flag and says why (exit code 2). "unexpected argument"
// fails. The same holds for each flag's variable (the README's table) and
// for a nested config file that uses every section.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { binary, repo, serveSite, startServer } from './helpers.js';
import { connect, startChromium, startHttpServer } from './http-helpers.js';

const require = createRequire(import.meta.url);
const mcpDir = dirname(require.resolve('@playwright/mcp/package.json'));
const mcpVersion = require('@playwright/mcp/package.json').version;

/** @playwright/mcp's flags as its --help lists them: `--name` → takes a value. */
function playwrightFlags() {
  const r = spawnSync(process.execPath, [join(mcpDir, 'cli.js'), '--help'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const flags = new Map();
  for (const m of r.stdout.matchAll(/^ {2}(?:-\w, )?(--[a-z][a-z-]*)( <[^>]+>)?/gm)) {
    if (m[1] !== '--help' && m[1] !== '--version') flags.set(m[1], Boolean(m[2]));
  }
  return flags;
}

/** The README's flag table: `--name` → its variable (and the value it shows, if any). */
function playwrightVariables() {
  const readme = readFileSync(join(mcpDir, 'README.md'), 'utf8');
  const vars = new Map();
  for (const m of readme.matchAll(/^\| (--[a-z-]+)[^|]*\|.*\*env\* `(PLAYWRIGHT_MCP_[A-Z_]+)(?:=(\w+))?`/gm)) {
    vars.set(m[1], { name: m[2], value: m[3] });
  }
  return vars;
}

const root = process.getuid && process.getuid() === 0;
const tmp = mkdtempSync(join(tmpdir(), 'rd-flags-'));
const files = {
  script: join(tmp, 'init.js'),
  secrets: join(tmp, 'secrets.env'),
  state: join(tmp, 'state.json'),
  config: join(tmp, 'flat.json'),
};
writeFileSync(files.script, 'window.__initScript = "ran";\n');
writeFileSync(files.secrets, 'SECRET_WORD=tangerine-42\n');
writeFileSync(files.state, JSON.stringify({ cookies: [], origins: [] }));
writeFileSync(files.config, JSON.stringify({ timeouts: { action: 5000 } }));

/**
 * A plausible value for each flag, and what our server does with it:
 * `works`, or `refused` (with a pattern its one line must match).
 */
function cases(ctx) {
  return {
    '--allowed-hosts': { args: ['localhost'] },
    '--allowed-origins': { args: [ctx.site.origin] },
    '--allow-unrestricted-file-access': { args: [] },
    '--blocked-origins': { args: ['http://127.0.0.1:1'] },
    '--block-service-workers': { args: [] },
    '--browser': { args: ['chromium'] },
    '--caps': { args: ['vision,pdf'] },
    '--cdp-endpoint': { args: [ctx.chromium.endpoint] },
    '--cdp-header': { args: ['X-Test: 1'], with: ['--cdp-endpoint', ctx.chromium.endpoint] },
    '--cdp-timeout': { args: ['30000'], with: ['--cdp-endpoint', ctx.chromium.endpoint] },
    '--codegen': { args: ['python'] },
    '--config': { args: [files.config] },
    '--console-level': { args: ['error'] },
    '--device': { args: ['iPhone 15'] },
    '--mobile': { args: [] },
    '--executable-path': { args: ['/usr/bin/chromium'] },
    '--extension': { args: [], refused: /Playwright Extension .*--cdp-endpoint/ },
    '--endpoint': { args: ['ws://127.0.0.1:1/'], refused: /Playwright's own browser-server protocol.*--cdp-endpoint/ },
    '--file-paths': { args: ['absolute'] },
    '--grant-permissions': { args: ['geolocation'] },
    '--headless': { args: [] },
    '--host': { args: ['127.0.0.1'] },
    '--idle-timeout': { args: ['60000'] },
    '--ignore-https-errors': { args: [] },
    '--init-page': { args: [join(tmp, 'page.ts')], refused: /TypeScript file on Playwright's page object.*--init-script/ },
    '--init-script': { args: [files.script] },
    '--isolated': { args: [] },
    '--image-responses': { args: ['omit'] },
    '--no-sandbox': { args: [] },
    '--no-webmcp': { args: [] },
    '--output-dir': { args: [join(tmp, 'out')] },
    '--output-max-size': { args: ['10000000'] },
    '--port': { args: ['0'], http: true },
    '--profile-dir-name': { args: ['Profile 1'] },
    '--proxy-bypass': { args: ['.example.com'], with: ['--proxy-server', 'http://127.0.0.1:9'] },
    '--proxy-server': { args: ['http://127.0.0.1:9'] },
    '--sandbox': root ? { args: [], refused: /cannot run sandboxed as root/ } : { args: [] },
    '--save-session': { args: [], with: ['--output-dir', join(tmp, 'session')] },
    '--secrets': { args: [files.secrets] },
    '--shared-browser-context': { args: [] },
    '--snapshot-boxes': { args: [] },
    '--snapshot-mode': { args: ['full'] },
    '--storage-state': { args: [files.state] },
    '--test-id-attribute': { args: ['data-qa'] },
    '--timeout-action': { args: ['5000'] },
    '--timeout-navigation': { args: ['60000'] },
    '--timeout-settle': { args: ['500'] },
    '--user-agent': { args: ['response-diff-e2e'] },
    '--user-data-dir': { args: [join(tmp, 'profile')] },
    '--viewport-size': { args: ['800x600'] },
  };
}

/** An MCP client's first two messages, then the end of stdin. */
const HELLO = [
  { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'flags', version: '1' } } },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
].map((m) => JSON.stringify(m)).join('\n') + '\n';

/**
 * Starts `mcp` and says hello over stdio, then closes stdin: a refusal
 * exits 2 before any browser starts; a server that starts answers the
 * initialize request and exits 0 when stdin ends.
 */
function startOnly(args, env = {}) {
  return spawnSync(binary(), ['mcp', ...args], {
    input: HELLO, encoding: 'utf8', timeout: 20000, env: { ...process.env, ...env },
  });
}

/** A start: exit 0, the initialize request answered, no error. */
function assertStarted(r, what) {
  assert.equal(r.status, 0, `${what}: ${r.stderr}`);
  assert.match(r.stdout, /"serverInfo":\{"name":"response-diff"/, what);
  assert.doesNotMatch(r.stderr, /unexpected argument|^error/m, what);
}

function assertRefused(r, flag, pattern, what) {
  assert.equal(r.status, 2, `${what}: expected a refusal, got ${r.status}:\n${r.stderr}`);
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 1, `${what}: the refusal is one line:\n${r.stderr}`);
  assert.match(lines[0], new RegExp(`^error: ${flag}\\b`), what);
  assert.match(lines[0], pattern, what);
  assert.doesNotMatch(r.stderr, /unexpected argument|browser started/, what);
}

/** The server with these arguments answers tools/list and navigates to a page. */
async function assertWorks(ctx, args, c, what) {
  if (c.http) {
    const server = await startHttpServer(args.filter((a, i) => !(a === '--port' || args[i - 1] === '--port')));
    try {
      const client = await connect(server.url);
      const nav = await client.call('browser_navigate', { url: ctx.site.url('/index.html') });
      assert.equal(nav.isError, false, `${what}: ${nav.text}`);
      await client.close();
    } finally {
      await server.stop();
    }
    return;
  }
  const server = await startServer(args);
  try {
    const { tools } = await server.client.listTools();
    assert.ok(tools.length > 10, what);
    const nav = await server.call('browser_navigate', { url: ctx.site.url('/index.html') });
    assert.equal(nav.isError, false, `${what}: ${nav.text}`);
  } finally {
    await server.close();
  }
}

describe(`the command line of @playwright/mcp ${mcpVersion}`, () => {
  const ctx = {};
  before(async () => {
    ctx.site = await serveSite();
    ctx.chromium = await startChromium();
    ctx.cases = cases(ctx);
  });
  after(async () => {
    await ctx.chromium?.kill();
    await ctx.site?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  test('every flag of its --help has a case here', () => {
    const flags = playwrightFlags();
    assert.ok(flags.size >= 50, `${flags.size} flags in --help`);
    assert.deepEqual([...flags.keys()].filter((f) => !ctx.cases[f]), []);
  });

  test('each flag works or is refused with its reason; none is an unexpected argument', async () => {
    const flags = playwrightFlags();
    const tally = { works: 0, refused: 0 };
    for (const [flag, takesValue] of flags) {
      const c = ctx.cases[flag];
      assert.equal(c.args.length > 0, takesValue, `${flag}: a value iff --help shows one`);
      const args = [...(c.with ?? []), flag, ...c.args];
      if (c.refused) {
        assertRefused(startOnly(args), flag, c.refused, flag);
        tally.refused += 1;
        continue;
      }
      if (!c.http) assertStarted(startOnly(args), flag);
      await assertWorks(ctx, args, c, flag);
      tally.works += 1;
    }
    console.log(`# @playwright/mcp ${mcpVersion} flags: ${tally.works} work, ${tally.refused} refused with a reason, 0 unexpected`);
  });

  test('firefox and webkit are refused at start-up, with what to use instead', () => {
    for (const b of ['firefox', 'webkit']) {
      assertRefused(startOnly(['--browser', b]), '--browser', /Chromium-family browsers over the Chrome DevTools Protocol.*--browser chromium/, b);
    }
    assertRefused(startOnly(['--caps', 'devtools']), '--caps', /capability `devtools`: its tools .* not offered/, 'devtools');
  });

  test('each PLAYWRIGHT_MCP_* variable of its README works or is refused like its flag', async () => {
    const vars = playwrightVariables();
    assert.ok(vars.size >= 50, `${vars.size} variables in the README`);
    for (const [flag, v] of vars) {
      const c = ctx.cases[flag];
      assert.ok(c, `${flag} (${v.name}) has a case`);
      const value = v.value ?? (c.args.length ? c.args.join(',') : 'true');
      const env = { [v.name]: value };
      const extra = c.with ?? [];
      const what = `${v.name}=${value}`;
      if (c.refused) {
        const r = startOnly(extra, env);
        assertRefused(r, flag, c.refused, what);
        assert.match(r.stderr, new RegExp(`\\(from ${v.name}\\)`), what);
        continue;
      }
      if (c.http) {
        continue; // --port over HTTP: the flag's own case covers it.
      }
      assertStarted(startOnly(extra, env), what);
    }
    // A value that is not a switch names the variable.
    const bad = startOnly([], { PLAYWRIGHT_MCP_HEADLESS: 'yes' });
    assert.equal(bad.status, 2, bad.stderr);
    assert.match(bad.stderr, /^error: PLAYWRIGHT_MCP_HEADLESS: `yes` is not a switch; use true, false, 1 or 0\n$/);
    const badPort = startOnly([], { PLAYWRIGHT_MCP_PORT: 'eighty' });
    assert.equal(badPort.status, 2, badPort.stderr);
    assert.match(badPort.stderr, /^error: PLAYWRIGHT_MCP_PORT: invalid value 'eighty' for '--port <PORT>'/);
  });

  test('a nested config file with every section starts and applies', async () => {
    const config = join(tmp, 'nested.json');
    writeFileSync(config, JSON.stringify({
      browser: {
        browserName: 'chromium',
        isolated: true,
        launchOptions: {
          headless: true, chromiumSandbox: false, executablePath: '/usr/bin/chromium',
          args: ['--disable-features=Translate'], proxy: { server: 'http://127.0.0.1:9', bypass: '.example.com' },
        },
        contextOptions: {
          viewport: { width: 900, height: 700 }, userAgent: 'nested-config-agent', ignoreHTTPSErrors: true,
          permissions: ['geolocation'], locale: 'de-DE', timezoneId: 'Asia/Tokyo',
          geolocation: { latitude: 48.85, longitude: 2.35 }, colorScheme: 'dark',
          isMobile: false, hasTouch: true, deviceScaleFactor: 2, storageState: files.state,
        },
        initScript: [files.script],
      },
      server: { host: '127.0.0.1', allowedHosts: ['localhost'] },
      network: { allowedOrigins: [ctx.site.origin], blockedOrigins: ['http://127.0.0.1:1'] },
      timeouts: { action: 4000, navigation: 20000, settle: 1000, idle: 600000 },
      snapshot: { mode: 'full', boxes: false },
      capabilities: ['core', 'pdf'],
      secrets: { NESTED_SECRET: 'plum-77' },
      outputDir: join(tmp, 'nested-out'),
      console: { level: 'warning' },
      imageResponses: 'allow',
      codegen: 'typescript',
    }));
    const server = await startServer(['--config', config]);
    try {
      const nav = await server.call('browser_navigate', { url: ctx.site.url('/index.html') });
      assert.equal(nav.isError, false, nav.text);
      // snapshot.mode full, codegen typescript
      assert.match(nav.text, /### Page snapshot\n```yaml\n/);
      assert.match(nav.text, /### Ran Playwright code\n```js\nawait page\.goto\(/);
      const facts = await server.call('browser_evaluate', {
        function: '() => ({ w: innerWidth, ua: navigator.userAgent, lang: navigator.language, tz: Intl.DateTimeFormat().resolvedOptions().timeZone, dark: matchMedia("(prefers-color-scheme: dark)").matches, touch: navigator.maxTouchPoints, dpr: devicePixelRatio, init: window.__initScript, secret: "plum-77" })',
      });
      const got = JSON.parse(facts.text.match(/### Result\n([\s\S]*?)\n\n###/)[1]);
      assert.deepEqual(got, {
        w: 900, ua: 'nested-config-agent', lang: 'de-DE', tz: 'Asia/Tokyo', dark: true, touch: 1, dpr: 2, init: 'ran',
        secret: '<secret>NESTED_SECRET</secret>',
      });
      // network.allowedOrigins
      const blocked = await server.call('browser_navigate', { url: 'http://127.0.0.1:1/' });
      assert.equal(blocked.isError, true, blocked.text);
      // capabilities: pdf is listed
      const { tools } = await server.client.listTools();
      assert.ok(tools.some((t) => t.name === 'browser_pdf_save'));
    } finally {
      await server.close();
    }
  });

  test('flags win over variables, which win over the config file', async () => {
    const config = join(tmp, 'layers.json');
    writeFileSync(config, JSON.stringify({ browser: { contextOptions: { viewport: { width: 800, height: 600 } } } }));
    const width = async (args, env) => {
      const saved = { ...process.env };
      Object.assign(process.env, env);
      let server;
      try {
        server = await startServer(args);
      } finally {
        for (const k of Object.keys(env)) if (saved[k] === undefined) delete process.env[k]; else process.env[k] = saved[k];
      }
      try {
        await server.call('browser_navigate', { url: ctx.site.url('/index.html') });
        const r = await server.call('browser_evaluate', { function: '() => innerWidth' });
        return Number(r.text.match(/### Result\n(\d+)/)[1]);
      } finally {
        await server.close();
      }
    };
    const env = { PLAYWRIGHT_MCP_VIEWPORT_SIZE: '900x700' };
    assert.equal(await width(['--config', config], {}), 800);
    assert.equal(await width(['--config', config], env), 900);
    assert.equal(await width(['--config', config, '--viewport-size', '1000x800'], env), 1000);
    // The config file can come from the environment too.
    assert.equal(await width([], { PLAYWRIGHT_MCP_CONFIG: config }), 800);
  });

  test('a bad nested key or type stops start-up naming the key', () => {
    const file = join(tmp, 'bad.json');
    const bad = [
      [{ browser: { launchOptions: { slowMo: 50 } } }, /key `browser\.launchOptions\.slowMo` is not supported here; the keys under `browser\.launchOptions` are args, channel/],
      [{ timeouts: { action: 'soon' } }, /key `timeouts\.action`: invalid value 'soon' for '--timeout-action <MS>'/],
      [{ snapshot: { boxes: 'yes' } }, /key `snapshot\.boxes` must be true or false/],
      [{ browser: { contextOptions: { viewport: [1, 2] } } }, /key `browser\.contextOptions\.viewport` must be an object \{"width"/],
      [{ server: 8931 }, /key `server` must be an object/],
      [{ browser: { browserName: 'webkit' } }, /--browser webkit \(from config file .*: key `browser\.browserName`\)|--browser webkit: this server drives Chromium-family/],
      [{ capabilities: ['testing'] }, /capability `testing`: its assertion tools/],
    ];
    for (const [json, message] of bad) {
      writeFileSync(file, JSON.stringify(json));
      const r = startOnly(['--config', file]);
      assert.equal(r.status, 2, `${JSON.stringify(json)}: ${r.stderr}`);
      assert.match(r.stderr, message, JSON.stringify(json));
      assert.doesNotMatch(r.stderr, /browser started/);
    }
  });

  test('the device table is the pinned package\'s', () => {
    const fromMcp = createRequire(join(mcpDir, 'package.json'));
    const { devices } = fromMcp('playwright-core');
    const ours = JSON.parse(readFileSync(join(repo, 'server/data/devices.json'), 'utf8'));
    assert.deepEqual(ours.devices, JSON.parse(JSON.stringify(devices)),
      'server/data/devices.json differs from the pinned playwright-core: run node scripts/devices.mjs');
  });
});
