// Resolving a user intent ("the button named X near Y") to a ref in an aria
// snapshot, the same way for every server (Playwright's format and ours).

const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const indentOf = (line) => line.length - line.trimStart().length;

/** The ref of `step.target` (inside the block around `step.within`) in an aria snapshot, or null. */
export function resolveRef(snapshot, step) {
  const lines = snapshot.split('\n');
  const target = new RegExp(`^\\s*- ${escapeRe(step.target)}(?=[\\s:\\[]|$)`);
  let from = 0;
  let minIndent = 0;
  if (step.within) {
    const at = lines.findIndex((l) => l.includes(step.within));
    if (at < 0) return null;
    from = at;
    // The anchor's siblings and their subtrees: the block it belongs to.
    minIndent = indentOf(lines[at]);
  }
  for (let i = from; i < lines.length; i++) {
    if (i > from && indentOf(lines[i]) < minIndent) break;
    if (target.test(lines[i])) {
      const m = lines[i].match(/\[ref=([A-Za-z0-9_]+)\]/);
      if (m) return m[1];
    }
  }
  return null;
}

