// Reading our responses back: Markdown sections, fenced blocks, a strict
// applier for our unified diffs (a port of core/tests/common/mod.rs's
// apply_diff), and snapshot patches applied with the server binary's
// `apply-patch`, so the bench can rebuild what an agent sees from the
// previous view plus a diff.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** `### heading` sections of a response, in order: [{ heading, body }]. */
export function readSections(text) {
  const out = [];
  const re = /^### (.+)$/gm;
  const marks = [];
  for (let m; (m = re.exec(text)); ) marks.push({ heading: m[1], start: m.index, bodyStart: m.index + m[0].length + 1 });
  for (let i = 0; i < marks.length; i++) {
    const end = i + 1 < marks.length ? marks[i + 1].start : text.length;
    out.push({ heading: marks[i].heading, body: text.slice(marks[i].bodyStart, end).replace(/\n+$/, '') });
  }
  return out;
}

/**
 * The content of the first fenced block in `body` whose info string is
 * `lang` ('' for any), or null. Fences may be longer than three backticks.
 */
export function fencedBlock(body, lang) {
  const lines = body.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = lines[i].match(/^(`{3,})(\S*)$/);
    if (!m || (lang && m[2] !== lang)) continue;
    for (let j = i + 1; j < lines.length; j++) {
      if (lines[j] === m[1]) return lines.slice(i + 1, j).join('\n');
    }
    return null;
  }
  return null;
}

function parseRange(s) {
  const [a, b] = s.split(',');
  const start = Number(a);
  const len = b === undefined ? 1 : Number(b);
  if (!Number.isInteger(start) || !Number.isInteger(len)) throw new Error(`bad hunk range ${s}`);
  return [start, len];
}

/**
 * Applies a unified diff (`@@ -a,b +c,d @@` hunks, ` `/`-`/`+` lines, no file
 * headers) to `old`. Throws, naming the hunk, when a hunk does not match.
 * Texts are compared as lines joined by '\n', as the fenced blocks carry them.
 */
export function applyUnified(old, patch) {
  const oldLines = old === '' ? [] : old.split('\n');
  const hunks = [];
  for (const line of patch.split('\n')) {
    if (line.startsWith('@@ -')) {
      const [start, len] = parseRange(line.slice(4).split(' ')[0]);
      hunks.push({ header: line, oldStart: len === 0 ? start : start - 1, oldLen: len, before: [], after: [] });
      continue;
    }
    if (line === '\\ No newline at end of file') continue;
    const h = hunks[hunks.length - 1];
    if (!h) throw new Error(`a diff line before any hunk header: ${JSON.stringify(line)}`);
    const tag = line[0];
    const text = line.slice(1);
    if (tag === ' ') {
      h.before.push(text);
      h.after.push(text);
    } else if (tag === '-') h.before.push(text);
    else if (tag === '+') h.after.push(text);
    else if (line === '') {
      // An empty context line whose leading space was trimmed.
      h.before.push('');
      h.after.push('');
    } else throw new Error(`a diff line with no ' ', '-' or '+' prefix: ${JSON.stringify(line)}`);
  }
  const out = [];
  let pos = 0;
  for (const h of hunks) {
    if (h.oldStart < pos) throw new Error(`hunk ${h.header} overlaps the previous one`);
    if (h.before.length !== h.oldLen) throw new Error(`hunk ${h.header} has ${h.before.length} old lines, not ${h.oldLen}`);
    if (h.oldStart + h.oldLen > oldLines.length) throw new Error(`hunk ${h.header} runs past the end of the old text (${oldLines.length} lines)`);
    out.push(...oldLines.slice(pos, h.oldStart));
    for (let k = 0; k < h.oldLen; k++) {
      if (oldLines[h.oldStart + k] !== h.before[k]) {
        throw new Error(`hunk ${h.header}: old line ${h.oldStart + k + 1} is ${JSON.stringify(oldLines[h.oldStart + k])}, the diff says ${JSON.stringify(h.before[k])}`);
      }
    }
    out.push(...h.after);
    pos = h.oldStart + h.oldLen;
  }
  out.push(...oldLines.slice(pos));
  return out.join('\n');
}

/**
 * Applies a snapshot patch (the body of a "Page snapshot (patch since …)"
 * section) to `old` with `bin apply-patch`, the applier the patch format is
 * defined by. Throws with the binary's error when the patch does not apply.
 */
export function applyPatch(bin, old, patch, seen = []) {
  const dir = mkdtempSync(join(tmpdir(), 'rd-patch-'));
  try {
    const file = join(dir, 'old.yaml');
    writeFileSync(file, old);
    const args = ['apply-patch', file, '-'];
    // Views shown earlier, for elements restored `as last shown`.
    if (patch.includes(' as last shown')) {
      seen.forEach((view, i) => {
        const f = join(dir, `seen-${i}.yaml`);
        writeFileSync(f, view);
        args.push('--seen', f);
      });
    }
    return execFileSync(bin, args, { input: patch, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] }).replace(/\n$/, '');
  } catch (e) {
    throw new Error(`apply-patch failed: ${e.stderr || e.message}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
