// The generated part of the conformance corpus: pages built from a matrix
// of (element × source of its name × kind of descendant × state), so the
// comparison covers markup by rule rather than pages we happened to meet.
//
//   - every HTML-AAM element that maps to a role (elements-*.html);
//   - every source of a name, on each role it applies to (names-*.html);
//   - every kind of descendant inside each role named from content
//     (content-*.html);
//   - every state and property Playwright prints (states-*.html).
//
// Pages are plain strings; `writeMatrix(dir)` writes them (the output is
// the same on every run). Each case is a block of its own, so one
// difference costs a line or two, not a page.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const STYLE = `
  .icon-before::before { content: ""; display: inline-block; width: 10px; height: 10px; background: #888; }
  .icon-after::after { content: ""; display: inline-block; width: 10px; height: 10px; background: #888; }
  .glyph::before { content: "\\2192"; }
  .text-before::before { content: "New: "; }
  .text-after::after { content: " (beta)"; }
  .req::after { content: " *"; color: #b00; }
  .ripple { position: relative; }
  .ripple::before { content: ""; position: absolute; inset: 0; opacity: 0; }
  .sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  .gone { display: none; }
  .invisible { visibility: hidden; }
  .contents { display: contents; }
  .block { display: block; }
`;

function page(title, body) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${title}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${title}</h1>
${body}
</main>
</body>
</html>
`;
}

const IMG = 'data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22 width=%2216%22 height=%2216%22/%3E';

// ------------------------------------------------------------ elements

const TEXT_LEVEL = [
  'abbr title="HyperText"', 'b', 'bdi', 'bdo dir="rtl"', 'cite', 'code', 'data value="7"', 'del', 'dfn', 'em', 'i',
  'ins', 'kbd', 'mark', 'q', 's', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time datetime="2026-01-01"', 'u', 'var',
];

const elementsText = page(
  'Text-level elements',
  TEXT_LEVEL.map((t) => {
    const tag = t.split(' ')[0];
    return `<p>Before <${t}>${tag} text</${tag}> after.</p>`;
  }).join('\n') + '\n<p>Line one<br>line two<wbr>joined</p>\n<pre>pre  formatted\n  text</pre>\n<blockquote><p>Quoted.</p></blockquote>\n<address>1 Main St.</address>\n<p><ruby>漢<rp>(</rp><rt>kan</rt><rp>)</rp>字<rp>(</rp><rt>ji</rt><rp>)</rp></ruby></p>',
);

const elementsStructure = page(
  'Structural elements',
  `<header><p>Page header</p></header>
<nav><a href="#a">Nav link</a></nav>
<article><header><p>Article header</p></header><h2>Article</h2><footer><p>Article footer</p></footer></article>
<aside><p>Aside text</p></aside>
<section><p>Section without a name</p></section>
<section aria-label="Named section"><p>Section with a name</p></section>
<section aria-labelledby="sec-h"><h2 id="sec-h">Section by heading</h2></section>
<form><p>Form without a name</p></form>
<form aria-label="Named form"><p>Form with a name</p></form>
<search><p>Search landmark</p></search>
<div role="search"><p>Role search</p></div>
<hgroup><h2>Grouped heading</h2><p>Subtitle</p></hgroup>
<h2>h2</h2><h3>h3</h3><h4>h4</h4><h5>h5</h5><h6>h6</h6>
<div role="heading" aria-level="3">ARIA heading</div>
<div role="heading">ARIA heading, no level</div>
<hr>
<figure><img src="${IMG}" alt="Chart"><figcaption>Figure caption</figcaption></figure>
<figure><p>Figure without caption</p></figure>
<details><summary>Summary closed</summary><p>Hidden detail</p></details>
<details open><summary>Summary open</summary><p>Shown detail</p></details>
<dialog open><p>Open non-modal dialog</p></dialog>
<dl><dt>Term</dt><dd>Definition</dd><div><dt>Wrapped term</dt><dd>Wrapped definition</dd></div></dl>
<math><mi>x</mi><mo>=</mo><mn>2</mn></math>
<output>Output text</output>
<div role="status">Status text</div>
<div role="alert">Alert text</div>
<div role="log">Log text</div>
<div role="marquee">Marquee text</div>
<div role="timer">Timer text</div>
<div role="note">Note text</div>
<div role="tooltip">Tooltip text</div>
<div role="feed"><article><p>Feed entry</p></article></div>
<div role="application" aria-label="App"><p>Application</p></div>
<div role="document"><p>Document role</p></div>
<div role="definition">Definition role</div>
<div role="term">Term role</div>
<div role="img" aria-label="Role img"></div>
<footer><p>Page footer</p></footer>`,
);

const elementsLists = page(
  'Lists and tables',
  `<ul><li>Unordered one</li><li>Unordered two</li></ul>
<ol><li>Ordered one</li><li>Ordered two <ul><li>Nested</li></ul></li></ol>
<menu><li>Menu item</li></menu>
<ul role="list"><li role="listitem">Explicit list item</li></ul>
<ul role="none"><li>Presentational list item</li></ul>
<table><caption>Data table</caption>
<thead><tr><th>Col A</th><th>Col B</th></tr></thead>
<tbody><tr><th scope="row">Row 1</th><td>B1</td></tr><tr><td>A2</td><td>B2</td></tr></tbody>
<tfoot><tr><td>Foot A</td><td>Foot B</td></tr></tfoot></table>
<table role="presentation"><tr><td>Layout cell</td><td>Layout cell 2</td></tr></table>
<table role="grid" aria-label="Grid"><tr role="row"><td>Grid cell</td><td aria-selected="true">Selected cell</td></tr></table>
<table aria-label="Single header"><tr><th>Only header</th></tr></table>
<table summary="Summary table"><tr><td>Summarized</td></tr></table>
<div role="table" aria-label="ARIA table"><div role="rowgroup"><div role="row"><span role="columnheader">H</span><span role="cell">C</span></div></div></div>
<div role="tree" aria-label="Tree"><div role="treeitem" aria-level="1" aria-expanded="true">Parent<div role="group"><div role="treeitem" aria-level="2">Child</div></div></div></div>`,
);

const elementsForms = page(
  'Form elements',
  `<form aria-label="Every input">
${['text', 'search', 'email', 'tel', 'url', 'password', 'number', 'range', 'date', 'time', 'datetime-local', 'month', 'week', 'color', 'checkbox', 'radio', 'file', 'submit', 'reset', 'button', 'image', 'unknown']
  .map((t) => `<label>Type ${t} <input type="${t}"${t === 'image' ? ` src="${IMG}" alt="Image input"` : ''}${t === 'button' ? ' value="Input button"' : ''}></label>`)
  .join('\n')}
<input type="hidden" value="hidden">
<label>List input <input list="dl"></label><datalist id="dl"><option value="One"></option></datalist>
<label>Textarea <textarea>Some text</textarea></label>
<label>Select <select><option>First</option><option selected>Second</option></select></label>
<label>Multi <select multiple><option selected>M1</option><option>M2</option></select></label>
<label>Sized <select size="3"><option>S1</option><option>S2</option></select></label>
<label>Groups <select><optgroup label="G1"><option>G1a</option></optgroup><optgroup label="G2" disabled><option>G2a</option></optgroup></select></label>
<fieldset><legend>Fieldset legend</legend><label><input type="radio" name="r" checked> Radio one</label><label><input type="radio" name="r"> Radio two</label></fieldset>
<label>Progress <progress value="3" max="10">30%</progress></label>
<progress>Indeterminate</progress>
<label>Meter <meter value="0.4">40%</meter></label>
<button type="button">Button element</button>
<button type="button" disabled>Disabled button</button>
<a>Anchor without href</a>
<a href="#x">Anchor with href</a>
<img src="${IMG}" alt="Image with alt">
<img src="${IMG}" alt="">
<img src="${IMG}">
<img src="${IMG}" alt="" title="Decorative with title">
<svg width="10" height="10" role="img" aria-label="Labelled svg"></svg>
<svg width="10" height="10"><circle r="4" cx="5" cy="5"/></svg>
<map name="m"><area href="#area" alt="Area link" shape="rect" coords="0,0,10,10"></map><img src="${IMG}" usemap="#m" alt="Mapped">
<div contenteditable="true">Editable div</div>
<div role="textbox" aria-label="ARIA textbox">ARIA text</div>
</form>`,
);

// --------------------------------------------------------------- names

// Each source, on the roles it names.
const NAMES = {
  button: [
    '<button>Content</button>',
    '<button aria-label="Aria label">Content</button>',
    '<button aria-label="  ">Blank aria-label</button>',
    '<span id="nb1">First</span><span id="nb2">Second</span><span id="nb3" hidden>Hidden part</span><button aria-labelledby="nb1 nb2 nb3">Content</button>',
    '<button aria-labelledby="nb-missing">Missing labelledby</button>',
    '<button aria-labelledby="nbself nbx" id="nbself">Self</button><span id="nbx">and more</span>',
    '<button title="Title only"></button>',
    '<button title="Title and content">Content wins</button>',
    '<button><img src="' + IMG + '" alt="Alt in button"></button>',
    '<button><img src="' + IMG + '" alt="Alt"> and text</button>',
    '<button><svg width="10" height="10"><title>Svg title</title><rect width="10" height="10"/></svg></button>',
    '<button><svg width="10" height="10" aria-label="Svg label"><rect width="10" height="10"/></svg></button>',
    '<button><span aria-label="Span label">x</span></button>',
    '<label for="nbl">Label for button</label><button id="nbl">Content</button>',
    '<input type="submit">',
    '<input type="reset">',
    '<input type="button">',
    '<input type="button" title="Input title">',
    '<input type="submit" value="Send it">',
    '<input type="image" src="' + IMG + '" alt="Image alt">',
    '<input type="image" src="' + IMG + '" title="Image title">',
    '<input type="image" src="' + IMG + '">',
    '<div role="button" tabindex="0">Div button</div>',
    '<div role="button" tabindex="0" title="Div title"></div>',
  ],
  link: [
    '<a href="#1">Content</a>',
    '<a href="#2" aria-label="Aria label">Content</a>',
    '<a href="#3" title="Title only"></a>',
    '<a href="#4"><img src="' + IMG + '" alt="Logo"></a>',
    '<a href="#5"><img src="' + IMG + '" alt="">Text beside empty alt</a>',
    '<a href="#6"><img src="' + IMG + '"></a>',
    '<span id="nl1">Labelled</span><a href="#7" aria-labelledby="nl1">Content</a>',
    '<a href="#8"><svg width="10" height="10"><title>Svg in link</title></svg></a>',
    '<a href="#9">Read <span class="sr-only">about names</span></a>',
  ],
  heading: [
    '<h2>Content</h2>',
    '<h2 aria-label="Aria label">Content</h2>',
    '<h2 title="Title">Content</h2>',
    '<h2><img src="' + IMG + '" alt="Image heading"></h2>',
    '<span id="nh1">Labelled heading</span><h2 aria-labelledby="nh1">Content</h2>',
    '<h2><a href="#h">Link in heading</a></h2>',
    '<h2>Text <a href="#h2">and link</a></h2>',
  ],
  textbox: [
    '<label for="nt1">Label for</label><input id="nt1">',
    '<label>Wrapping label <input></label>',
    '<label><input> Label after</label>',
    '<input aria-label="Aria label">',
    '<span id="nt2">Labelled by</span><input aria-labelledby="nt2">',
    '<span id="nt3a">Two</span><span id="nt3b">ids</span><input aria-labelledby="nt3a nt3b">',
    '<input title="Title">',
    '<input placeholder="Placeholder">',
    '<input placeholder="Placeholder" title="Title wins">',
    '<input placeholder="Placeholder" aria-label="Label wins">',
    '<textarea placeholder="Textarea placeholder"></textarea>',
    '<label for="nt4">First label</label><label for="nt4">Second label</label><input id="nt4">',
    '<label for="nt5" class="gone">Hidden label</label><input id="nt5">',
    '<label for="nt6">Label <span aria-hidden="true">(hidden part)</span></label><input id="nt6">',
    '<label for="nt7">Label <span class="gone">(gone part)</span> end</label><input id="nt7">',
    '<label for="nt8" class="req">Required</label><input id="nt8">',
    '<label>Outer <input id="nt9" value="own value"></label>',
    '<label for="nt10">Count <input type="number" value="3"> items</label><input id="nt10">',
    '<label for="nt11">Choose <select><option>red</option></select> color</label><input id="nt11">',
    '<input type="search" placeholder="Search placeholder">',
    '<input type="email" aria-label="Email" placeholder="you@example.com">',
  ],
  checkbox: [
    '<label><input type="checkbox"> Wrapped</label>',
    '<input type="checkbox" id="nc1"><label for="nc1">Label for</label>',
    '<input type="checkbox" aria-label="Aria label">',
    '<input type="checkbox" title="Title">',
    '<div role="checkbox" aria-checked="false" tabindex="0">Div checkbox</div>',
    '<label><input type="checkbox" checked> <b>Bold</b> label</label>',
    '<label for="ncs"><select id="ncs"><option>/api - Local</option></select></label>',
  ],
  combobox: [
    '<label>Wrapped <select><option>One</option></select></label>',
    '<label for="ns1">Label for</label><select id="ns1"><option>One</option></select>',
    '<select aria-label="Aria label"><option>One</option></select>',
    '<select title="Title"><option>One</option></select>',
    '<select><option>Unlabelled</option></select>',
    '<label for="ns2"><select id="ns2"><option>Own option</option></select></label>',
    '<label for="ns3">Before <select id="ns3"><option>Own</option></select> after</label>',
  ],
  img: [
    '<img src="' + IMG + '" alt="Alt">',
    '<img src="' + IMG + '" title="Title">',
    '<img src="' + IMG + '" alt="Alt" title="Title">',
    '<img src="' + IMG + '" aria-label="Aria label" alt="Alt">',
    '<svg width="10" height="10"><title>Svg title</title></svg>',
    '<svg width="10" height="10" aria-labelledby="nsv"><text id="nsv" y="9">Svg text</text></svg>',
    '<div role="img" aria-label="Div img"></div>',
  ],
  group: [
    '<fieldset><legend>Legend</legend><input aria-label="In fieldset"></fieldset>',
    '<fieldset title="Fieldset title"><input aria-label="In titled fieldset"></fieldset>',
    '<fieldset><legend><b>Bold</b> legend</legend></fieldset>',
    '<div role="group" aria-label="Aria group"><button>In group</button></div>',
    '<details><summary>Details summary</summary>Body</details>',
  ],
  figure: [
    '<figure><img src="' + IMG + '" alt="Pic"><figcaption>Caption</figcaption></figure>',
    '<figure aria-label="Aria figure"><figcaption>Caption</figcaption></figure>',
    '<figure><figcaption><em>Em</em> caption</figcaption></figure>',
  ],
  table: [
    '<table><caption>Caption</caption><tr><td>1</td></tr></table>',
    '<table aria-label="Aria table"><caption>Caption</caption><tr><td>1</td></tr></table>',
    '<table title="Title table"><tr><td>1</td></tr></table>',
    '<table><caption><b>Bold</b> caption</caption><tr><th>H</th></tr><tr><td>2</td></tr></table>',
  ],
  region: [
    '<section aria-label="Region label"><p>Body</p></section>',
    '<span id="nr1">Region by id</span><section aria-labelledby="nr1"><p>Body</p></section>',
    '<section title="Region title"><p>Body</p></section>',
    '<nav aria-label="Nav label"><a href="#n">N</a></nav>',
    '<div role="dialog" aria-labelledby="nd1"><h2 id="nd1">Dialog heading</h2></div>',
  ],
  option: [
    '<div role="listbox" aria-label="Box"><div role="option" aria-selected="true">Option content</div><div role="option" aria-label="Option label">x</div></div>',
  ],
};

const namePages = Object.entries(NAMES).map(([role, cases]) => ({
  file: `names-${role}.html`,
  html: page(`Names: ${role}`, cases.map((c) => `<div class="case">${c}</div>`).join('\n')),
}));

// ---------------------------------------------------------- descendants

const DESCENDANTS = [
  ['inline formatting', 'Save <b>all</b> <em>changes</em>'],
  ['one formatting child', '<strong>Expand model</strong>'],
  ['formatting and decorative span', '<strong>Expand model</strong><span class="icon-after"></span>'],
  ['decorative empty span', '<span></span>Plain text'],
  ['icon ::before', '<span class="icon-before"></span>Settings'],
  ['icon ::after', 'Next<span class="icon-after"></span>'],
  ['glyph ::before text', '<span class="glyph"></span> Continue'],
  ['own ::before text', null, 'text-before', 'Release'],
  ['own ::after text', null, 'text-after', 'Search'],
  ['image with alt', '<img src="' + IMG + '" alt="Gear"> Options'],
  ['image without alt', '<img src="' + IMG + '"> Profile'],
  ['image alt only', '<img src="' + IMG + '" alt="Home">'],
  ['hidden child', 'Visible<span hidden> hidden</span>'],
  ['display none child', 'Shown<span class="gone"> gone</span>'],
  ['visibility hidden child', 'Seen<span class="invisible"> unseen</span>'],
  ['aria-hidden child', '<span aria-hidden="true">★ </span>Favourite'],
  ['aria-hidden icon only', '<span aria-hidden="true" class="icon-before"></span>'],
  ['display contents child', '<span class="contents"><b>Contents</b> child</span>'],
  ['block child', '<span class="block">Block</span> child'],
  ['sr-only text', '<span class="icon-before"></span><span class="sr-only">Close dialog</span>'],
  ['line break', 'Two<br>lines'],
  ['nested label text', '<span><span>Deep</span></span> text'],
  ['ripple ::before', null, 'ripple', 'Ripple'],
];

function descendantCases(wrap) {
  return DESCENDANTS.map(([label, inner, cls, text]) => {
    const body = inner ?? text;
    return `<div class="case" data-case="${label}">${wrap(body, cls || '')}</div>`;
  }).join('\n');
}

const CONTAINERS = {
  button: (b, c) => `<button type="button" class="${c}">${b}</button>`,
  link: (b, c) => `<a href="#d" class="${c}">${b}</a>`,
  heading: (b, c) => `<h2 class="${c}">${b}</h2>`,
  'label-checkbox': (b, c) => `<label class="${c}"><input type="checkbox"> ${b}</label>`,
  'label-for': (b, c) => `<label class="${c}" for="lf-${c}">${b}</label>`,
  listitem: (b, c) => `<ul><li class="${c}">${b}</li></ul>`,
  cell: (b, c) => `<table><tr><td class="${c}">${b}</td><td>x</td></tr></table>`,
  tab: (b, c) => `<div role="tablist"><div role="tab" tabindex="0" class="${c}">${b}</div></div>`,
  menuitem: (b, c) => `<div role="menu"><div role="menuitem" tabindex="-1" class="${c}">${b}</div></div>`,
  paragraph: (b, c) => `<p class="${c}">${b}</p>`,
};

const contentPages = Object.entries(CONTAINERS).map(([name, wrap]) => ({
  file: `content-${name}.html`,
  html: page(`Content: ${name}`, descendantCases(wrap)),
}));

// Nested controls inside elements named from content.
contentPages.push({
  file: 'content-nested-controls.html',
  html: page(
    'Nested controls',
    `<div role="button" tabindex="0">Outer <button>Inner</button></div>
<a href="#n1">Link <input aria-label="Field in link"></a>
<div role="row"><div role="gridcell">Cell <button>Act</button></div></div>
<label>Agree <input type="checkbox"> and <a href="#terms">terms</a></label>
<h2>Heading <button>Edit</button></h2>
<div role="option" aria-selected="false">Option <input type="checkbox" aria-label="pick"></div>
<button>Count <span role="img" aria-label="three">3</span></button>
<a href="#n2"><span role="presentation">Presented</span> link</a>`,
  ),
});

// ---------------------------------------------------------------- states

const statesPage = page(
  'States',
  `<input type="checkbox" aria-label="unchecked">
<input type="checkbox" checked aria-label="checked">
<input type="checkbox" id="mixed" aria-label="indeterminate">
<div role="checkbox" aria-checked="mixed" tabindex="0">ARIA mixed</div>
<div role="checkbox" aria-checked="true" tabindex="0">ARIA checked</div>
<input type="radio" name="s" checked aria-label="radio on">
<input type="radio" name="s" aria-label="radio off">
<div role="switch" aria-checked="true" tabindex="0">Switch on</div>
<div role="menu"><div role="menuitemcheckbox" aria-checked="true">Check item</div><div role="menuitemradio" aria-checked="false">Radio item</div></div>
<button disabled>Disabled</button>
<button aria-disabled="true">ARIA disabled</button>
<a href="#dis" aria-disabled="true">Disabled link</a>
<fieldset disabled><legend>Disabled set</legend><input aria-label="in disabled set"><button>In disabled set</button></fieldset>
<select aria-label="disabled select" disabled><option>x</option></select>
<div role="group" aria-disabled="true"><button>In aria-disabled group</button></div>
<button aria-expanded="true">Expanded</button>
<button aria-expanded="false">Collapsed</button>
<a href="#e" aria-expanded="true">Expanded link</a>
<div role="combobox" aria-expanded="true" aria-label="combo" tabindex="0"></div>
<details open><summary>Open details</summary>x</details>
<h3 aria-level="5">Level overridden</h3>
<div role="listitem" aria-level="2">Listitem level</div>
<div role="tree" aria-label="t"><div role="treeitem" aria-level="3" aria-selected="true">Treeitem</div></div>
<button aria-pressed="true">Pressed</button>
<button aria-pressed="mixed">Pressed mixed</button>
<button aria-pressed="false">Not pressed</button>
<div role="tablist"><div role="tab" aria-selected="true">Tab on</div><div role="tab" aria-selected="false">Tab off</div></div>
<div role="listbox" aria-label="lb"><div role="option" aria-selected="true">Opt on</div><div role="option" aria-selected="false" aria-disabled="true">Opt off</div></div>
<input aria-label="invalid" aria-invalid="true">
<input aria-label="invalid spelling" aria-invalid="spelling">
<input aria-label="required" required>
<input aria-label="readonly" readonly value="ro">
<input aria-label="autofocused" autofocus>
<input aria-label="value" value="typed">
<textarea aria-label="area">multi
line</textarea>
<input type="range" aria-label="range" value="30">
<input type="number" aria-label="num" value="4">
<div role="slider" aria-label="aria slider" aria-valuenow="5" aria-valuetext="five" tabindex="0"></div>
<div role="progressbar" aria-label="aria progress" aria-valuenow="20"></div>
<a href="https://example.com/page?q=1#frag">External URL</a>
<a href="data:text/plain,hello">Data URL</a>
<a href="/relative/path">Relative</a>
<script>document.getElementById('mixed').indeterminate = true;</script>`,
);

const hiddenPage = page(
  'Hidden and inert',
  `<div aria-hidden="true"><button>Hidden button</button><p>Hidden paragraph</p></div>
<div aria-hidden="true"><div aria-hidden="false"><a href="#ah">Unhidden link</a></div></div>
<div hidden><button>Hidden attr</button></div>
<div class="invisible"><button>Invisible</button><span style="visibility: visible">Visible inside invisible</span></div>
<div inert><button>Inert button</button><a href="#in">Inert link</a><input aria-label="inert field"></div>
<section aria-label="inert region" inert><h2>Inert heading</h2></section>
<div class="contents"><button>Button in contents</button></div>
<div style="opacity: 0"><button>Transparent button</button></div>
<div style="width: 0; height: 0; overflow: hidden"><button>Clipped button</button></div>`,
);

export const MATRIX = [
  { file: 'elements-text.html', html: elementsText },
  { file: 'elements-structure.html', html: elementsStructure },
  { file: 'elements-lists-tables.html', html: elementsLists },
  { file: 'elements-forms.html', html: elementsForms },
  ...namePages,
  ...contentPages,
  { file: 'states.html', html: statesPage },
  { file: 'hidden.html', html: hiddenPage },
];

/** Writes the matrix pages into `dir`; returns their file names. */
export function writeMatrix(dir) {
  mkdirSync(dir, { recursive: true });
  for (const p of MATRIX) writeFileSync(join(dir, p.file), p.html);
  return MATRIX.map((p) => p.file);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop())) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: node bench/conformance/matrix.mjs <dir>  (writes the generated pages there)');
    process.exit(2);
  }
  console.log(writeMatrix(dir).join('\n'));
}
