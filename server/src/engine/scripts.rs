//! The JavaScript the server runs in pages, in one place: functions
//! called on an element (`Runtime.callFunctionOn`, `this` is the element)
//! and expressions.

pub(super) fn js_str(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// `(x, y)` is in the viewport of the element's session, `(left, top)` the
/// corner of the element's quads there (null when unknown): the shift to
/// its own document's viewport is that corner minus its box's (0 unless in
/// a same-process frame).
pub(super) const HIT_TEST: &str = r#"function (x, y, left, top) {
  const r = this.getBoundingClientRect();
  const dx = left === null ? 0 : left - r.left, dy = top === null ? 0 : top - r.top;
  const hit = document.elementFromPoint(x - dx, y - dy);
  if (!hit || hit === this || this.contains(hit) || hit.contains(this)) return null;
  if (hit.getRootNode() !== document && hit.getRootNode().host && this.contains(hit.getRootNode().host)) return null;
  const name = (hit.getAttribute('aria-label') || hit.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 40);
  return '<' + hit.tagName.toLowerCase() + '>' + (name ? ' "' + name + '"' : '');
}"#;

/// `browser_drop`: a drag from outside the page onto the element, as page
/// events (`dragenter`, `dragover`, then `drop` if the page's `dragover`
/// handler accepted it, else `dragleave`) carrying a `DataTransfer` with
/// the files (base64) and the MIME-typed data. `x`, `y` are the point in
/// the element's viewport. Returns "accepted" or "not-accepted".
pub(super) const DROP: &str = r#"function (files, data, x, y) {
  if (!this.isConnected || this.nodeType !== 1) return 'not-connected';
  const dt = new DataTransfer();
  for (const f of files) {
    const bytes = Uint8Array.from(atob(f.base64), c => c.charCodeAt(0));
    dt.items.add(new File([bytes], f.name, { type: f.type, lastModified: f.lastModified }));
  }
  for (const [type, value] of data) dt.setData(type, value);
  const ev = type => new DragEvent(type, { bubbles: true, cancelable: true, composed: true, clientX: x, clientY: y, dataTransfer: dt });
  this.dispatchEvent(ev('dragenter'));
  const over = ev('dragover');
  this.dispatchEvent(over);
  if (!over.defaultPrevented) { this.dispatchEvent(ev('dragleave')); return 'not-accepted'; }
  this.dispatchEvent(ev('drop'));
  return 'accepted';
}"#;

pub(super) const FOCUS_AND_SELECT: &str = r#"function () {
  // Page globals are not trusted: polyfills (webcomponents.js in Polymer's
  // TodoMVC) replace HTMLInputElement and document with wrappers, so an
  // instanceof check or document.activeElement fails on a real input.
  const tag = this.localName;
  const field = tag === 'input' || tag === 'textarea';
  this.scrollIntoView({ block: 'center', inline: 'center' });
  this.focus();
  try {
    if (field) {
      this.select();
    } else if (this.isContentEditable) {
      const doc = this.ownerDocument;
      const r = doc.createRange();
      r.selectNodeContents(this);
      const s = doc.getSelection();
      s.removeAllRanges();
      s.addRange(r);
    }
  } catch (e) {}
  return (field || this.isContentEditable) && this.matches(':focus, :focus-within');
}"#;

pub(super) const SELECT_OPTIONS: &str = r#"function (values) {
  if (!(this instanceof HTMLSelectElement)) return { error: 'not a select element' };
  const options = [...this.options];
  const picked = [];
  const missing = [];
  for (const v of values) {
    const o = options.find(o => o.value === v) || options.find(o => o.label === v) || options.find(o => o.textContent.trim() === v);
    if (o) picked.push(o); else missing.push(v);
  }
  if (missing.length) return { error: 'no option ' + JSON.stringify(missing) + '; the options are ' + JSON.stringify(options.map(o => o.label)) };
  if (!this.multiple && picked.length > 1) return { error: 'this select takes one value' };
  for (const o of options) o.selected = picked.includes(o);
  this.dispatchEvent(new Event('input', { bubbles: true }));
  this.dispatchEvent(new Event('change', { bubbles: true }));
  return { selected: picked.map(o => o.label) };
}"#;

/// `[url, title, document token]`: the document's time origin is the same
/// for the life of a document (pushState included) and new on every load.
pub(super) const PAGE_INFO: &str =
    "[location.href, document.title, String(performance.timeOrigin)]";

/// `[url, title]`.
pub(super) const PAGE_STATE: &str = "[location.href, document.title]";

/// The whole document's HTML.
pub(super) const DOCUMENT_HTML: &str = "document.documentElement.outerHTML";

/// An element's HTML.
pub(super) const OUTER_HTML: &str = "function () { return this.outerHTML; }";

/// An element's box in page coordinates: `[x, y, width, height]`.
pub(super) const PAGE_BOX: &str = "function () { const r = this.getBoundingClientRect(); return [r.x + scrollX, r.y + scrollY, r.width, r.height]; }";

/// An element's box in its viewport: `[x, y, width, height]`.
pub(super) const VIEWPORT_BOX: &str =
    "function () { const r = this.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; }";

/// The agent's `browser_evaluate` function called with the element as both
/// `this` and its argument (a non-function is returned as is).
pub(super) fn on_element(function: &str) -> String {
    format!(
        "function (el) {{ const f = ({function}\n); return typeof f === 'function' ? f(el) : f; }}"
    )
}

/// The agent's `browser_evaluate` function called on the page, awaited.
pub(super) fn on_page(function: &str) -> String {
    format!(
        "(async () => {{ const f = ({function}\n); return typeof f === 'function' ? await f() : f; }})()"
    )
}

/// Whether the page's visible text contains `text`.
pub(super) fn text_present(text: &str) -> String {
    format!(
        "(document.body ? document.body.innerText : '').includes({})",
        js_str(text)
    )
}

/// The first element matching a CSS selector (throws on invalid CSS).
pub(super) fn query_selector(css: &str) -> String {
    format!("document.querySelector({})", js_str(css))
}
