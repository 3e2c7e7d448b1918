// response-diff DOM fingerprint extractor (docs/DECISIONS.md D17).
//
// This file is one function expression. A driver evaluates it and calls it
// with `{scope, depth}`; it returns a plain object in the seed's JSON shape,
// or `{error: {field, message}}` when the options or the page do not allow
// an extraction. It only reads the DOM: no writes, so layout and style are
// computed at most once per call (reads are never interleaved with writes).
//
// Budget: it inspects selected elements only (landmarks, headings, lists,
// forms, tables, images, interactive candidates, state markers) through
// native querySelectorAll, checks visibility with Element.checkVisibility
// (one cached call per element, no getComputedStyle in loops), and stops
// inspecting interactive candidates once the cap of visible ones is reached.
(function responseDiffFingerprint(options) {
  'use strict';
  try {
    return extract(options || {});
  } catch (e) {
    return { error: { message: 'the page-side extractor failed: ' + (e && e.message ? e.message : String(e)) } };
  }

  function extract(opts) {
    const scope = opts.scope == null ? 'full' : String(opts.scope);
    const depth = opts.depth == null ? 'standard' : String(opts.depth);
    if (depth !== 'minimal' && depth !== 'standard' && depth !== 'detailed') {
      return { error: { field: 'depth', message: 'depth must be "minimal", "standard" or "detailed", not ' + JSON.stringify(depth) } };
    }
    if (scope === '') {
      return { error: { field: 'scope', message: 'scope must be "full", "above_fold" or a CSS selector, not empty' } };
    }
    const doc = document;
    const standard = depth !== 'minimal';
    const detailed = depth === 'detailed';
    const CAP = {
      interactive: detailed ? 100 : 50,
      headings: 50,
      lists: 20,
      forms: 10,
      tables: 10,
      landmarks: 20,
      state: 10,
      contains: 20,
      landmarkInteractive: 20,
      fields: 30,
      headers: 20,
      text: 100,
      listItems: 1000,
      hiddenKept: 10,
    };
    const vw = window.innerWidth;
    const vh = window.innerHeight;

    // ---- scope ----------------------------------------------------------
    let root = doc.body || doc.documentElement;
    let aboveFold = false;
    if (scope === 'above_fold') {
      aboveFold = true;
    } else if (scope !== 'full') {
      let el;
      try {
        el = doc.querySelector(scope);
      } catch (e) {
        return { error: { field: 'scope', message: 'invalid CSS selector ' + JSON.stringify(scope) + ': ' + e.message } };
      }
      if (!el) {
        return { error: { field: 'scope', message: 'selector ' + JSON.stringify(scope) + ' matches nothing on the page' } };
      }
      if (el.tagName === 'IFRAME' || el.tagName === 'FRAME') {
        let d = null;
        try {
          d = el.contentDocument;
        } catch (e) {
          d = null;
        }
        if (!d || !(d.body || d.documentElement)) {
          return { error: { field: 'scope', message: 'the iframe ' + JSON.stringify(scope) + ' is cross-origin or not loaded; only same-origin frames can be scoped' } };
        }
        root = d.body || d.documentElement;
      } else {
        root = el;
      }
    }
    const rootDoc = root.ownerDocument || doc;
    const base = (function () {
      try {
        return rootDoc.defaultView.location;
      } catch (e) {
        return window.location;
      }
    })();

    // ---- roots: the scope plus every open shadow root under it (iframes are
    // separate documents, so querySelectorAll never enters them) ----------
    const roots = [root];
    let shadowHosts = [];
    (function collect(r) {
      const host = r.nodeType === 1 ? r : null;
      if (host && host.shadowRoot) {
        shadowHosts.push(host);
        roots.push(host.shadowRoot);
        collect(host.shadowRoot);
      }
      const all = r.querySelectorAll('*');
      for (let i = 0; i < all.length; i++) {
        const sr = all[i].shadowRoot;
        if (sr) {
          shadowHosts.push(all[i]);
          roots.push(sr);
          collect(sr);
        }
      }
    })(root);

    function qsa(sel) {
      const out = [];
      if (root.nodeType === 1 && root.matches(sel)) out.push(root);
      for (let i = 0; i < roots.length; i++) {
        const list = roots[i].querySelectorAll(sel);
        for (let j = 0; j < list.length; j++) out.push(list[j]);
      }
      return out;
    }

    // ---- visibility and geometry (cached reads only) -------------------
    const CV = { opacityProperty: true, visibilityProperty: true, checkOpacity: true, checkVisibilityCSS: true };
    const visMemo = new Map();
    function visible(el) {
      let v = visMemo.get(el);
      if (v !== undefined) return v;
      if (typeof el.checkVisibility === 'function') {
        v = el.checkVisibility(CV);
      } else {
        v = fallbackVisible(el);
      }
      visMemo.set(el, v);
      return v;
    }
    function fallbackVisible(el) {
      if (!el.getClientRects().length) return false;
      for (let n = el; n && n.nodeType === 1; n = parentEl(n)) {
        const cs = getComputedStyle(n);
        if (cs.display === 'none' || cs.opacity === '0') return false;
        if (n === el && cs.visibility !== 'visible') return false;
      }
      return true;
    }
    // Why an element the user cannot see is not seen: 'css' (display,
    // visibility, opacity, content-visibility), 'off_screen' (its box lies
    // entirely outside the document's scrollable area: negative offsets, a
    // huge translate), 'clipped' (entirely outside an ancestor that clips
    // its overflow), or '' when it is rendered where it can be seen.
    // Geometry is read only for elements the fingerprint reports (not for
    // every list item or table row), and styles once per element.
    const hiddenMemo = new Map();
    function hiddenBy(el) {
      let h = hiddenMemo.get(el);
      if (h !== undefined) return h;
      h = !visible(el) ? 'css' : offScreen(el) ? 'off_screen' : clipped(el) ? 'clipped' : '';
      hiddenMemo.set(el, h);
      return h;
    }
    function onScreen(el) {
      return hiddenBy(el) === '';
    }
    function withHidden(entry, el) {
      const h = hiddenBy(el);
      if (h) entry.hidden_by = h;
      return entry;
    }
    const rootView = rootDoc.defaultView || window;
    const docEl = rootDoc.documentElement;
    let docBox = null;
    // The scrollable area in viewport coordinates: from the document's
    // origin (nothing left of or above it can be scrolled to) to its scroll
    // size, which a positive translate or offset already extends.
    function documentBox() {
      if (!docBox) {
        const sx = rootView.scrollX || 0;
        const sy = rootView.scrollY || 0;
        docBox = { left: -sx, top: -sy, right: Math.max(docEl.scrollWidth, vw) - sx, bottom: Math.max(docEl.scrollHeight, vh) - sy };
      }
      return docBox;
    }
    function outside(r, b) {
      return r.right <= b.left || r.bottom <= b.top || r.left >= b.right || r.top >= b.bottom;
    }
    // The element's box, or for an inline element around blocks (a link
    // wrapping an image, a card) whose own box is a line of zero height,
    // the union of its children's boxes.
    const boxMemo = new Map();
    function box(el) {
      let b = boxMemo.get(el);
      if (b) return b;
      b = rect(el);
      if ((b.width < 1 || b.height < 1) && el.firstElementChild) {
        let l = Infinity, t = Infinity, r = -Infinity, bo = -Infinity;
        let n = 0;
        for (let c = el.firstElementChild; c && n < 20; c = c.nextElementSibling, n++) {
          const cr = rect(c);
          if (cr.width < 1 && cr.height < 1) continue;
          l = Math.min(l, cr.left);
          t = Math.min(t, cr.top);
          r = Math.max(r, cr.right);
          bo = Math.max(bo, cr.bottom);
        }
        if (r > l && bo > t) b = { left: l, top: t, right: r, bottom: bo, width: r - l, height: bo - t };
      }
      boxMemo.set(el, b);
      return b;
    }
    function offScreen(el) {
      const r = box(el);
      if (r.width === 0 && r.height === 0) return false;
      return outside(r, documentBox());
    }
    const styleMemo = new Map();
    function style(el) {
      let cs = styleMemo.get(el);
      if (!cs) {
        cs = getComputedStyle(el);
        styleMemo.set(el, cs);
      }
      return cs;
    }
    const CLIPS = /hidden|clip/;
    // Entirely outside an ancestor that clips (overflow hidden or clip). An
    // absolutely positioned box escapes the ancestors below its containing
    // block, a fixed one all of them; <html> and <body> pass their overflow
    // to the viewport, which documentBox covers.
    function clipped(el) {
      const r = box(el);
      if (r.width === 0 && r.height === 0) return false;
      let pos = style(el).position;
      if (pos === 'fixed') return false;
      let needPositioned = pos === 'absolute';
      for (let a = parentEl(el); a && a !== docEl && a !== rootDoc.body; a = parentEl(a)) {
        const s = style(a);
        if (s.display === 'contents') continue;
        const positioned = s.position !== 'static' || s.transform !== 'none';
        if (needPositioned && !positioned) continue;
        if ((CLIPS.test(s.overflowX) || CLIPS.test(s.overflowY)) && outside(r, rect(a))) return true;
        if (s.position === 'fixed') return false;
        needPositioned = s.position === 'absolute';
      }
      return false;
    }
    const rectMemo = new Map();
    function rect(el) {
      let r = rectMemo.get(el);
      if (!r) {
        r = el.getBoundingClientRect();
        rectMemo.set(el, r);
      }
      return r;
    }
    function inViewport(el) {
      const r = rect(el);
      return r.bottom > 0 && r.right > 0 && r.top < vh && r.left < vw && (r.width > 0 || r.height > 0);
    }
    function inScope(el) {
      return !aboveFold || inViewport(el);
    }
    // Flat-tree parent: slotted nodes belong to their slot, shadow roots to their host.
    function parentEl(n) {
      if (n.assignedSlot) return n.assignedSlot;
      const p = n.parentNode;
      if (!p) return null;
      if (p.nodeType === 11) return p.host || null;
      return p.nodeType === 1 ? p : null;
    }

    // ---- text and accessible names -------------------------------------
    const BLOCK = new Set(['DIV', 'P', 'LI', 'UL', 'OL', 'TD', 'TH', 'TR', 'BR', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'SECTION', 'ARTICLE', 'HEADER', 'FOOTER', 'NAV', 'MAIN', 'ASIDE', 'DT', 'DD', 'FIGCAPTION', 'LABEL', 'OPTION', 'TABLE', 'FORM', 'FIELDSET', 'LEGEND', 'BLOCKQUOTE', 'PRE', 'HR']);
    const SKIP = new Set(['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT', 'SELECT', 'TEXTAREA', 'DATALIST']);
    function textOf(node, limit) {
      const max = limit || 240;
      let out = '';
      (function walk(n) {
        const start = n.shadowRoot || n;
        for (let c = start.firstChild; c && out.length < max; c = c.nextSibling) {
          if (c.nodeType === 3) {
            out += c.data;
          } else if (c.nodeType === 1) {
            const t = c.tagName;
            if (SKIP.has(t) || c.hidden === true || c.getAttribute('aria-hidden') === 'true') continue;
            if (t === 'IMG' || t === 'AREA') {
              out += ' ' + (c.getAttribute('alt') || '') + ' ';
              continue;
            }
            if (t === 'INPUT') {
              const ty = (c.type || '').toLowerCase();
              if (ty === 'submit' || ty === 'button' || ty === 'reset') out += ' ' + (c.value || '') + ' ';
              continue;
            }
            const al = c.getAttribute('aria-label');
            if (al) {
              out += ' ' + al + ' ';
              continue;
            }
            if (t === 'SLOT') {
              const assigned = c.assignedNodes();
              if (assigned.length) {
                for (let i = 0; i < assigned.length && out.length < max; i++) {
                  const a = assigned[i];
                  if (a.nodeType === 3) out += a.data;
                  else if (a.nodeType === 1) walkWrap(a);
                }
                continue;
              }
            }
            walkWrap(c);
          }
        }
        function walkWrap(c) {
          const block = BLOCK.has(c.tagName);
          if (block) out += ' ';
          walk(c);
          if (block) out += ' ';
        }
      })(node);
      return out;
    }
    // Collapse whitespace; cut long text at a word boundary so that a cut
    // never splits a date or a number differently from one load to the next.
    function clean(s, limit) {
      if (s == null) return '';
      s = String(s).replace(/\s+/g, ' ').trim();
      const max = limit || CAP.text;
      if (s.length <= max) return s;
      let cut = s.lastIndexOf(' ', max);
      if (cut < max * 0.6) cut = max;
      return s.slice(0, cut).trim() + '…';
    }
    function byIdIn(el, id) {
      const r = el.getRootNode();
      return typeof r.getElementById === 'function' ? r.getElementById(id) : rootDoc.getElementById(id);
    }
    function labelledBy(el) {
      const ids = el.getAttribute('aria-labelledby');
      if (!ids) return '';
      const parts = [];
      for (const id of ids.split(/\s+/)) {
        if (!id) continue;
        const t = byIdIn(el, id);
        if (t) parts.push(t.getAttribute('aria-label') || textOf(t));
      }
      return clean(parts.join(' '));
    }
    // The label an author gave (aria-labelledby, aria-label), without content.
    function ariaLabel(el) {
      return labelledBy(el) || clean(el.getAttribute('aria-label'));
    }
    const FIELD_TAGS = new Set(['INPUT', 'SELECT', 'TEXTAREA', 'METER', 'PROGRESS', 'OUTPUT']);
    function accName(el) {
      let s = ariaLabel(el);
      if (s) return s;
      const tag = el.tagName;
      if (FIELD_TAGS.has(tag)) {
        const type = (el.getAttribute('type') || '').toLowerCase();
        if (tag === 'INPUT' && (type === 'submit' || type === 'reset' || type === 'button')) {
          s = clean(el.value) || (type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : '');
          if (s) return s;
        }
        if (tag === 'INPUT' && type === 'image') {
          s = clean(el.getAttribute('alt'));
          if (s) return s;
        }
        const labels = el.labels;
        if (labels && labels.length) {
          const parts = [];
          for (let i = 0; i < labels.length; i++) parts.push(textOf(labels[i]));
          s = clean(parts.join(' '));
          if (s) return s;
        }
        return clean(el.getAttribute('title')) || clean(el.getAttribute('placeholder'));
      }
      if (tag === 'IMG' || tag === 'AREA') return clean(el.getAttribute('alt')) || clean(el.getAttribute('title'));
      s = clean(textOf(el));
      if (s) return s;
      return clean(el.getAttribute('title'));
    }

    // ---- selectors ------------------------------------------------------
    const STATE_CLASS = /^(is-|has-|js-)|^(active|show|shown|open|opened|closed|hidden|visible|invisible|selected|disabled|enabled|loading|loaded|collapsed|expanded|in|fade|focus|focused|hover|current|error|invalid|valid|d-none|sr-only)$/;
    // A chunk (between - _ : .) with a digit and 4 or more characters is
    // generated, whether or not it happens to be all digits (the core's
    // id-by-position rule): `todo-8f3a9c`, `todo-1700000000`.
    function generatedChunk(s) {
      const parts = s.split(/[-_:.]/);
      for (let i = 0; i < parts.length; i++) if (parts[i].length >= 4 && /\d/.test(parts[i])) return true;
      return false;
    }
    function stableId(id) {
      return !!id && id.length <= 64 && !/\d{3,}|[0-9a-f]{8,}|^[:\d]|^(ember|react|radix|mui|headlessui|rc-|__)/i.test(id) && !generatedChunk(id);
    }
    function stableClass(c) {
      return c.length <= 40 && /^[A-Za-z_-][\w-]*$/.test(c) && !/\d{3,}/.test(c) && !generatedChunk(c) && !/^(css|sc|jsx|emotion|svelte|tw|ng)-/.test(c) && !/__[A-Za-z0-9_-]{5,}$/.test(c) && !STATE_CLASS.test(c);
    }
    function quoteAttr(v) {
      return '"' + String(v).slice(0, 40).replace(/["\\]/g, '\\$&').replace(/\s+/g, ' ') + '"';
    }
    function localSel(el) {
      if (stableId(el.id)) return '#' + CSS.escape(el.id);
      let s = el.tagName.toLowerCase();
      // Sorted: scripts that add classes in a racing order (a framework's
      // and a widget's on <body>) must not change the selector.
      const stable = Array.prototype.filter.call(el.classList, stableClass).sort();
      const n = Math.min(stable.length, 2);
      for (let i = 0; i < n; i++) s += '.' + CSS.escape(stable[i]);
      if (n === 0) {
        const al = el.getAttribute('aria-label');
        const name = el.getAttribute('name');
        const role = el.getAttribute('role');
        if (al) s += '[aria-label=' + quoteAttr(al) + ']';
        else if (name) s += '[name=' + quoteAttr(name) + ']';
        else if (role) s += '[role=' + quoteAttr(role) + ']';
      }
      return s;
    }
    function count(r, s) {
      try {
        return r.querySelectorAll(s).length;
      } catch (e) {
        return 2;
      }
    }
    const selMemo = new Map();
    function sel(el) {
      let s = selMemo.get(el);
      if (s !== undefined) return s;
      s = localSel(el);
      const r = el.getRootNode();
      // Not unique in its root: anchor it under the nearest ancestor that has
      // a stable id or class (at most twice). Equal selectors that remain are
      // told apart by the core in document order.
      for (let anchors = 0, a = el.parentElement; s[0] !== '#' && anchors < 2 && a && count(r, s) > 1; a = a.parentElement) {
        for (; a; a = a.parentElement) {
          const ls = stableId(a.id) || Array.prototype.some.call(a.classList, stableClass) ? localSel(a) : '';
          if (ls) {
            s = ls + ' ' + s;
            anchors++;
            break;
          }
        }
        if (!a) break;
      }
      if (r.nodeType === 11 && r.host) s = sel(r.host) + ' >>> ' + s;
      selMemo.set(el, s);
      return s;
    }

    // ---- landmarks ------------------------------------------------------
    const ROLE_KEY = { banner: 'header', navigation: 'nav', main: 'main', contentinfo: 'footer', complementary: 'aside', search: 'search', region: 'region', form: 'form' };
    const TAG_ROLE = { HEADER: 'banner', NAV: 'navigation', MAIN: 'main', FOOTER: 'contentinfo', ASIDE: 'complementary', SEARCH: 'search', SECTION: 'region' };
    function landmarkRole(el) {
      const explicit = (el.getAttribute('role') || '').trim().split(/\s+/)[0].toLowerCase();
      if (explicit) {
        if (!ROLE_KEY[explicit]) return null;
        if ((explicit === 'region' || explicit === 'form') && !ariaLabel(el)) return null;
        return explicit;
      }
      const role = TAG_ROLE[el.tagName];
      if (!role) return null;
      // header/footer are landmarks only outside sectioning content.
      if ((role === 'banner' || role === 'contentinfo') && el.parentElement && el.parentElement.closest('article,aside,main,nav,section')) return null;
      if (role === 'region' && !ariaLabel(el)) return null;
      return role;
    }
    const landmarkKey = new Map();
    const landmarkList = [];
    const keysUsed = new Set();
    function uniqueKey(k) {
      let key = k;
      for (let i = 2; keysUsed.has(key); i++) key = k + '#' + i;
      keysUsed.add(key);
      return key;
    }
    const LM_SEL = 'header,nav,main,footer,aside,search,section[aria-label],section[aria-labelledby],[role=banner],[role=navigation],[role=main],[role=contentinfo],[role=complementary],[role=search],[role=region],[role=form]';
    for (const el of qsa(LM_SEL)) {
      if (landmarkList.length >= CAP.landmarks) break;
      const role = landmarkRole(el);
      if (!role || !inScope(el)) continue;
      const label = ariaLabel(el);
      const key = uniqueKey(label ? ROLE_KEY[role] + ':' + clean(label, 40) : ROLE_KEY[role]);
      landmarkKey.set(el, key);
      landmarkList.push({ el, key, role });
    }
    let noLandmarks = false;
    if (!landmarkList.length) {
      // No landmarks: fall back to the top-level <div> structure, descending
      // through single wrappers such as <div id="app">.
      noLandmarks = true;
      let container = root.shadowRoot || root;
      for (let i = 0; i < 4; i++) {
        const kids = significantChildren(container);
        if (kids.length === 1) container = kids[0].shadowRoot || kids[0];
        else break;
      }
      for (const el of significantChildren(container)) {
        if (landmarkList.length >= 10) break;
        if (!inScope(el)) continue;
        const key = uniqueKey(sel(el));
        landmarkKey.set(el, key);
        landmarkList.push({ el, key, role: 'generic' });
      }
    }
    function significantChildren(n) {
      const out = [];
      for (let c = n.firstElementChild; c; c = c.nextElementSibling) {
        if (SKIP.has(c.tagName) || c.tagName === 'LINK' || c.tagName === 'META') continue;
        out.push(c);
      }
      return out;
    }

    // Region chain of an element's ancestors (landmarks, named sections,
    // dialogs), memoized per ancestor so a page is walked at most once.
    function regionName(n) {
      const k = landmarkKey.get(n);
      if (k) return k;
      const t = n.tagName;
      if (t === 'SECTION' || t === 'ARTICLE') {
        const name = ariaLabel(n) || (stableId(n.id) ? n.id : '');
        return name ? 'section:' + clean(name, 40) : null;
      }
      const role = n.getAttribute('role');
      if (t === 'DIALOG' || role === 'dialog' || role === 'alertdialog') {
        const name = ariaLabel(n);
        return name ? 'dialog:' + clean(name, 40) : 'dialog';
      }
      // Lists and forms too, so compare can fold "link missing" into "list emptied".
      if (t === 'UL' || t === 'OL' || t === 'MENU' || role === 'list') return 'list:' + sel(n);
      if (t === 'FORM') return 'form:' + sel(n);
      if (t === 'TABLE' || role === 'table' || role === 'grid' || role === 'treegrid') return 'table:' + sel(n);
      return null;
    }
    const chainMemo = new Map();
    const EMPTY = [];
    function chainOf(el) {
      const stack = [];
      let chain = EMPTY;
      for (let n = parentEl(el); n; n = parentEl(n)) {
        const m = chainMemo.get(n);
        if (m) {
          chain = m;
          break;
        }
        stack.push(n);
        if (n === root) break;
      }
      for (let i = stack.length - 1; i >= 0; i--) {
        const r = regionName(stack[i]);
        if (r) chain = chain.concat([r]);
        chainMemo.set(stack[i], chain);
      }
      return chain;
    }
    function location(el) {
      const c = chainOf(el);
      return c.length ? c.slice(-4).join(' > ') : '';
    }
    function nearestLandmark(el) {
      for (let n = parentEl(el); n; n = parentEl(n)) {
        const k = landmarkKey.get(n);
        if (k) return k;
        if (n === root) break;
      }
      return null;
    }
    const contains = new Map();
    function addContains(el, item) {
      const k = nearestLandmark(el);
      if (!k) return;
      let list = contains.get(k);
      if (!list) contains.set(k, (list = []));
      if (list.length < CAP.contains) list.push(item);
    }
    for (const lm of landmarkList) addContains(lm.el, lm.key);

    // ---- interactive types ---------------------------------------------
    const ROLE_TYPE = { button: 'button', link: 'link', checkbox: 'checkbox', radio: 'radio', switch: 'switch', tab: 'tab', menuitem: 'menuitem', menuitemcheckbox: 'menuitem', menuitemradio: 'menuitem', combobox: 'combobox', textbox: 'input', searchbox: 'input', slider: 'slider', spinbutton: 'input' };
    const INPUT_TYPE = { button: 'button', submit: 'button', reset: 'button', image: 'button', checkbox: 'checkbox', radio: 'radio', range: 'slider', file: 'file', color: 'color' };
    function itype(el) {
      const role = (el.getAttribute('role') || '').trim().split(/\s+/)[0].toLowerCase();
      if (role && ROLE_TYPE[role]) return ROLE_TYPE[role];
      switch (el.tagName) {
        case 'A':
        case 'AREA':
          return 'link';
        case 'BUTTON':
        case 'SUMMARY':
          return 'button';
        case 'SELECT':
          return 'select';
        case 'TEXTAREA':
          return 'textarea';
        case 'INPUT':
          return INPUT_TYPE[(el.getAttribute('type') || '').toLowerCase()] || 'input';
      }
      if (el.isContentEditable) return 'textbox';
      return 'focusable';
    }
    const HAS_VALUE = new Set(['input', 'textarea', 'select', 'combobox', 'textbox', 'file', 'color', 'slider']);
    function hrefPath(el) {
      const h = el.getAttribute('href');
      if (h == null) return undefined;
      try {
        const u = new URL(h, rootDoc.baseURI);
        if (u.protocol !== 'http:' && u.protocol !== 'https:' && u.protocol !== 'file:') return u.protocol;
        // Same origin as the page (or the frame: srcdoc frames report "null").
        const same = u.origin === base.origin || u.origin === window.location.origin;
        let p = same ? u.pathname : '//' + u.host + u.pathname;
        if (/^#[!/]/.test(u.hash)) p += u.hash;
        return p;
      } catch (e) {
        return '';
      }
    }
    function isEnabled(el) {
      if (el.matches(':disabled')) return false;
      return el.getAttribute('aria-disabled') !== 'true';
    }
    // What covers `el`: the element hit at its centre when a click there
    // would not reach `el` (the hit is neither `el`, a descendant of it,
    // nor one of its labels) and the same holds for most of four inner
    // points, so an edge under a sticky bar does not count. An ancestor
    // hit covers too: a pseudo-element overlay is hit-tested as the
    // element that draws it (`body::after`, over the whole page, hits as
    // body), and `pointer-events: none` passes the click to an ancestor.
    // A point where `el` draws no box (between the lines of a wrapped
    // link) is not a click on it, so there an ancestor does not count.
    // Only points inside the viewport can be hit-tested (elementFromPoint),
    // and scrolling to test the rest would write to the page: an element
    // entirely outside the viewport is not tested (null).
    const INNER = [0.5, 0.5, 0.2, 0.2, 0.8, 0.2, 0.2, 0.8, 0.8, 0.8];
    function coveredBy(el) {
      const r = box(el);
      if (r.width < 1 || r.height < 1) return null;
      const rn = el.getRootNode();
      const from = typeof rn.elementFromPoint === 'function' ? rn : rootDoc;
      let tested = 0;
      let covered = 0;
      let first = null;
      for (let i = 0; i < INNER.length; i += 2) {
        const x = r.left + r.width * INNER[i];
        const y = r.top + r.height * INNER[i + 1];
        if (x < 0 || y < 0 || x >= vw || y >= vh) continue;
        tested++;
        const hit = from.elementFromPoint(x, y);
        if (covers(el, hit, x, y)) {
          covered++;
          if (!first) first = hit;
        } else if (i === 0) {
          return null;
        }
      }
      return tested && covered * 2 > tested ? { hit: first, el } : null;
    }
    function covers(el, hit, x, y) {
      if (!hit || hit === el || el.contains(hit)) return false;
      const labels = el.labels;
      if (labels) for (let i = 0; i < labels.length; i++) if (labels[i] === hit || labels[i].contains(hit)) return false;
      if (hit.contains(el) || (el.getRootNode().host && hit.contains(el.getRootNode().host))) return drawsAt(el, x, y);
      return true;
    }
    function drawsAt(el, x, y) {
      const rs = el.getClientRects();
      if (!rs.length) return true;
      for (let i = 0; i < rs.length; i++) {
        const q = rs[i];
        if (x >= q.left && x < q.right && y >= q.top && y < q.bottom) return true;
      }
      return false;
    }
    // The pseudo-element of `hit` that covers: for an ancestor hit, one
    // of its ::after/::before (else `el` passes pointer events through);
    // for another element, a positioned one where its own box is not.
    function coverPseudo(hit, el) {
      const style = (p) => {
        try {
          const cs = getComputedStyle(hit, p);
          return cs.content && cs.content !== 'none' && cs.content !== 'normal' && cs.display !== 'none' ? cs : null;
        } catch (e) {
          return null;
        }
      };
      const after = style('::after');
      const before = style('::before');
      const placed = (cs) => cs && (cs.position === 'fixed' || cs.position === 'absolute');
      if (hit.contains(el)) {
        for (let n = el; n && n !== hit; n = parentEl(n)) {
          if (getComputedStyle(n).pointerEvents === 'none') return '';
        }
        if (placed(after)) return '::after';
        if (placed(before)) return '::before';
        return after ? '::after' : before ? '::before' : '';
      }
      const own = box(el);
      const hr = hit.getBoundingClientRect();
      const cx = own.left + own.width / 2;
      const cy = own.top + own.height / 2;
      if (cx >= hr.left && cx < hr.right && cy >= hr.top && cy < hr.bottom) return '';
      if (placed(after)) return '::after';
      if (placed(before)) return '::before';
      return '';
    }
    function coverName(hit) {
      for (let n = hit, i = 0; n && i < 6; n = parentEl(n), i++) {
        const k = landmarkKey.get(n);
        if (k) return k;
        if (stableId(n.id) || Array.prototype.some.call(n.classList, stableClass)) return localSel(n);
      }
      return hit.tagName.toLowerCase();
    }

    const structure = {
      landmarks: {},
      content: { headings: [], lists: [], forms: [], tables: [], images: { count: 0, with_alt: 0, broken: 0 } },
      interactive: [],
      state: { error_elements: [], loading_indicators: [], empty_states: [], modals_open: [], notifications: [] },
    };
    const truncated = [];

    if (standard) {
      // ---- headings ------------------------------------------------------
      for (const el of qsa('h1,h2,h3,h4,h5,h6,[role=heading]')) {
        if (!visible(el) || !inScope(el)) continue;
        const text = accName(el);
        if (!text) continue;
        if (structure.content.headings.length >= CAP.headings) {
          truncated.push('headings');
          break;
        }
        let level = /^H[1-6]$/.test(el.tagName) ? +el.tagName[1] : parseInt(el.getAttribute('aria-level'), 10);
        if (!(level >= 1 && level <= 6)) level = 2;
        structure.content.headings.push({ level, text });
        addContains(el, 'heading:' + text);
      }

      // ---- named sections and shadow hosts, for landmark summaries --------
      for (const el of qsa('section,article')) {
        if (landmarkKey.has(el)) continue;
        const name = regionName(el);
        if (name && inScope(el)) addContains(el, name);
      }
      for (const host of shadowHosts) if (inScope(host)) addContains(host, 'shadow:' + host.tagName.toLowerCase());

      // ---- lists ---------------------------------------------------------
      for (const el of qsa('ul,ol,menu,[role=list]')) {
        if (!inScope(el)) continue;
        const r = (el.getAttribute('role') || '').toLowerCase();
        if (r && r !== 'list') continue;
        if (structure.content.lists.length >= CAP.lists) {
          truncated.push('lists');
          break;
        }
        let items = 0;
        let seen = 0;
        for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
          if (c.tagName !== 'LI' && c.getAttribute('role') !== 'listitem') continue;
          // Count rendered items: a list whose items are all hidden by CSS is empty to the user.
          if (++seen > CAP.listItems || visible(c)) items++;
        }
        const s = sel(el);
        structure.content.lists.push(withHidden({ selector: s, items, type: r === 'list' ? 'list' : el.tagName.toLowerCase(), visible: onScreen(el) }, el));
        addContains(el, 'list:' + s);
      }

      // ---- forms ---------------------------------------------------------
      for (const el of qsa('form')) {
        if (!inScope(el)) continue;
        if (structure.content.forms.length >= CAP.forms) {
          truncated.push('forms');
          break;
        }
        const fields = [];
        const buttons = [];
        const els = el.elements;
        for (let i = 0; i < els.length && fields.length + buttons.length < CAP.fields; i++) {
          const c = els[i];
          const t = c.tagName;
          if (t === 'FIELDSET' || t === 'OBJECT' || t === 'OUTPUT') continue;
          if (t === 'INPUT' && (c.getAttribute('type') || '').toLowerCase() === 'hidden') continue;
          const ty = itype(c);
          const name = accName(c) || (c.getAttribute('name') ? '@' + c.getAttribute('name') : '');
          (ty === 'button' ? buttons : fields).push(ty + ':' + name);
        }
        const s = sel(el);
        structure.content.forms.push(withHidden({ selector: s, fields, buttons, visible: onScreen(el) }, el));
        addContains(el, 'form:' + s);
      }

      // ---- tables --------------------------------------------------------
      for (const el of qsa('table,[role=table],[role=grid],[role=treegrid]')) {
        const r = (el.getAttribute('role') || '').toLowerCase();
        if (r === 'presentation' || r === 'none' || !inScope(el)) continue;
        if (structure.content.tables.length >= CAP.tables) {
          truncated.push('tables');
          break;
        }
        let rows = 0;
        let columns = 0;
        const headers = [];
        if (el.tagName === 'TABLE') {
          const bodies = el.tBodies;
          let rowList = [];
          if (bodies.length) for (let b = 0; b < bodies.length; b++) rowList = rowList.concat(Array.from(bodies[b].rows));
          else rowList = Array.from(el.rows).filter((row) => !row.parentElement || row.parentElement.tagName !== 'THEAD');
          for (const row of rowList) {
            if (row.cells.length && row.cells[0].tagName === 'TH' && !rows && !el.tHead && Array.from(row.cells).every((c) => c.tagName === 'TH')) {
              if (detailed) for (const c of row.cells) if (headers.length < CAP.headers) headers.push(clean(textOf(c), 40));
              columns = Math.max(columns, row.cells.length);
              continue;
            }
            if (rows >= CAP.listItems || visible(row)) rows++;
            if (columns === 0) columns = row.cells.length;
          }
          if (el.tHead && el.tHead.rows.length) {
            const hr = el.tHead.rows[0];
            columns = Math.max(columns, hr.cells.length);
            if (detailed) for (const c of hr.cells) if (headers.length < CAP.headers) headers.push(clean(textOf(c), 40));
          }
        } else {
          for (const row of el.querySelectorAll('[role=row]')) {
            const cells = row.querySelectorAll('[role=cell],[role=gridcell]');
            const heads = row.querySelectorAll('[role=columnheader]');
            if (heads.length && !cells.length) {
              columns = Math.max(columns, heads.length);
              if (detailed) for (const c of heads) if (headers.length < CAP.headers) headers.push(clean(textOf(c), 40));
            } else if (visible(row)) {
              rows++;
              if (!columns) columns = cells.length;
            }
          }
        }
        const s = sel(el);
        const t = withHidden({ selector: s, rows, columns, visible: onScreen(el) }, el);
        if (headers.length) t.headers = headers;
        structure.content.tables.push(t);
        addContains(el, 'table:' + s);
      }

      // ---- images --------------------------------------------------------
      const imgs = structure.content.images;
      for (const el of qsa('img')) {
        if (!inScope(el)) continue;
        imgs.count++;
        if (el.hasAttribute('alt')) imgs.with_alt++;
        if (el.complete && el.naturalWidth === 0 && (el.currentSrc || el.getAttribute('src'))) imgs.broken++;
      }

      // ---- interactive ---------------------------------------------------
      const cand = qsa("a[href],area[href],button,input:not([type=hidden]),select,textarea,summary,[role=button],[role=link],[role=checkbox],[role=radio],[role=switch],[role=tab],[role=menuitem],[role=menuitemcheckbox],[role=menuitemradio],[role=combobox],[role=textbox],[role=searchbox],[role=slider],[role=spinbutton],[contenteditable=''],[contenteditable=true],[tabindex]:not([tabindex='-1'])");
      const shown = [];
      const hidden = [];
      for (let i = 0; i < cand.length; i++) {
        const el = cand[i];
        if (onScreen(el)) {
          if (!inScope(el)) continue;
          if (shown.length >= CAP.interactive) {
            truncated.push('interactive');
            break;
          }
          shown.push(i);
        } else if (!aboveFold && hidden.length < CAP.interactive) {
          // Present but not rendered: kept so compare can say "hidden" rather than "missing".
          hidden.push(i);
        }
      }
      // Hidden ones fill what the cap leaves, and the first few are kept even
      // on a page that fills it: an element hidden by a regression would
      // otherwise drop out and read as removed rather than hidden.
      const keepHidden = Math.max(CAP.interactive - shown.length, CAP.hiddenKept);
      const picked = shown.concat(hidden.slice(0, keepHidden)).sort((a, b) => a - b);
      const landmarkInteractive = new Map();
      for (const i of picked) {
        const el = cand[i];
        const type = itype(el);
        const e = withHidden({ type, text: accName(el), visible: onScreen(el), enabled: isEnabled(el) }, el);
        const href = el.tagName === 'A' || el.tagName === 'AREA' ? hrefPath(el) : undefined;
        if (href !== undefined) e.href = href;
        if (HAS_VALUE.has(type) && !el.isContentEditable) e.value = el.value ? '[has value]' : '';
        if (type === 'checkbox' || type === 'radio' || type === 'switch') {
          e.checked = el.tagName === 'INPUT' ? !!el.checked : el.getAttribute('aria-checked') === 'true';
        }
        const loc = location(el);
        if (loc) e.location = loc;
        const cover = e.visible ? coveredBy(el) : null;
        if (cover) {
          e.obscured = true;
          e.covered_by = coverName(cover.hit) + coverPseudo(cover.hit, cover.el);
        }
        structure.interactive.push(e);
        if (detailed) {
          const k = nearestLandmark(el);
          if (k) {
            let list = landmarkInteractive.get(k);
            if (!list) landmarkInteractive.set(k, (list = []));
            if (list.length < CAP.landmarkInteractive) list.push(type + ':' + e.text);
          }
        }
      }
      for (const lm of landmarkList) lm.interactive = landmarkInteractive.get(lm.key);
    }

    // ---- state (every depth) ---------------------------------------------
    function stateList(selector, opt) {
      const out = [];
      const accepted = [];
      for (const el of qsa(selector)) {
        if (el.getAttribute('aria-hidden') === 'true' || !visible(el) || !inScope(el)) continue;
        // Nested matches (an .error inside a [role=alert]) count once.
        if (accepted.some((a) => a.contains(el))) continue;
        let text;
        if (el.getAttribute('aria-invalid') === 'true' && FIELD_TAGS.has(el.tagName)) text = 'invalid: ' + accName(el);
        else if (opt.name) text = opt.name(el);
        else text = clean(textOf(el));
        if (opt.needText && !text) continue;
        accepted.push(el);
        if (out.length >= CAP.state) break;
        out.push({ selector: sel(el), text });
      }
      return out;
    }
    const st = structure.state;
    st.error_elements = stateList('[role=alert],[aria-invalid=true],.error,.errors,.alert-error,.alert-danger,.error-message,.error-banner,.has-error,.invalid-feedback,[data-error]:not([data-error=false])', { needText: true });
    st.loading_indicators = stateList('[aria-busy=true],[role=progressbar],progress,.loading,.loader,.spinner,.skeleton,.is-loading', { name: (el) => ariaLabel(el) || clean(el.getAttribute('title')) || (el.tagName === 'PROGRESS' || el.getAttribute('role') === 'progressbar' ? '' : clean(textOf(el, 60), 60)) });
    st.empty_states = stateList('.empty-state,.empty,.no-results,.no-data,[data-empty]:not([data-empty=false])', {});
    st.modals_open = stateList('dialog[open],[role=dialog],[role=alertdialog],[aria-modal=true],.modal.show,.modal.open,.modal.is-open,.modal.in', {
      name: (el) => {
        const n = ariaLabel(el);
        if (n) return n;
        const h = el.querySelector('h1,h2,h3,h4,h5,h6,[role=heading]');
        return h ? clean(textOf(h)) : '';
      },
    });
    st.notifications = stateList("[role=status],[role=log],[aria-live=polite],[aria-live=assertive]:not([role=alert]),.toast,.notification,.snackbar,.flash", { needText: true });

    for (const lm of landmarkList) {
      const entry = withHidden({ present: true, visible: onScreen(lm.el), role: lm.role, contains: (contains.get(lm.key) || []) }, lm.el);
      if (detailed) entry.interactive = lm.interactive || [];
      structure.landmarks[lm.key] = entry;
    }
    if (noLandmarks) structure.no_landmarks = true;
    if (truncated.length) structure.truncated = Array.from(new Set(truncated));

    return {
      url: base.href,
      title: clean(rootDoc.title, 200),
      viewport: { width: vw, height: vh },
      captured_at: new Date().toISOString(),
      scope,
      depth,
      structure,
    };
  }
})
