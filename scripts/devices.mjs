#!/usr/bin/env node
// Writes server/data/devices.json, the device table behind `--device`
// (docs/CONFIG.md): Playwright's device descriptors, as the playwright-core
// that the pinned @playwright/mcp (tests/e2e/package.json) depends on has
// them (`require('playwright-core').devices`; Apache-2.0, Microsoft). The
// e2e test tests/e2e/test/flags.test.js fails when the committed table and
// the pinned package's differ; run this (after `make e2e` installed the
// packages) to bring it up to date.
//
// Usage: node scripts/devices.mjs
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const fromE2e = createRequire(join(repo, 'tests/e2e/package.json'));
const fromMcp = createRequire(fromE2e.resolve('@playwright/mcp/package.json'));
const { devices } = fromMcp('playwright-core');
const mcp = fromE2e('@playwright/mcp/package.json');
const core = fromMcp('playwright-core/package.json');
const table = {
  source: `playwright-core ${core.version} (the dependency of @playwright/mcp ${mcp.version}), require('playwright-core').devices; Apache-2.0, Microsoft Corporation`,
  devices,
};
writeFileSync(join(repo, 'server/data/devices.json'), JSON.stringify(table, null, 1) + '\n');
console.log(`server/data/devices.json: ${Object.keys(devices).length} devices from playwright-core ${core.version}`);
