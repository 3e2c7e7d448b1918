// The small pages the devtools tests drive: each re-renders what it shows
// (new DOM nodes, so chrome-devtools-mcp gives them new uids).

/** A list of buttons rebuilt on every change; a click on a row records it. */
export const LIST = `<!doctype html><title>List</title>
<h1>List</h1>
<ul id="list"></ul>
<button id="add">Add</button> <button id="shift">Remove first</button>
<script>
let rows = ['Row 0', 'Row 1']
window.clicked = []
function render() {
  document.getElementById('list').replaceChildren(...rows.map((r) => {
    const li = document.createElement('li')
    const b = Object.assign(document.createElement('button'), { textContent: r })
    b.onclick = () => { window.clicked.push(r); render() }
    li.append(b)
    return li
  }))
}
document.getElementById('add').onclick = () => { rows.push('Row ' + rows.length); render() }
document.getElementById('shift').onclick = () => { rows.shift(); render() }
render()
</script>`

/** A form and two drag handles, all rebuilt by "Rebuild". */
export const FORM = `<!doctype html><title>Form</title>
<h1>Form</h1>
<div id="slot"></div>
<button id="rebuild">Rebuild</button>
<script>
window.drags = []
function build() {
  document.getElementById('slot').innerHTML =
    '<label>First <input id="first"></label> <label>Last <input id="last"></label>' +
    '<p><button id="from">Source</button> <button id="to">Target</button></p>'
}
document.addEventListener('mousedown', (e) => window.drags.push('down:' + e.target.id), true)
document.addEventListener('mouseup', (e) => window.drags.push('up:' + e.target.id), true)
document.addEventListener('dragstart', (e) => window.drags.push('down:' + e.target.id), true)
document.addEventListener('drop', (e) => window.drags.push('up:' + e.target.id), true)
document.getElementById('rebuild').onclick = build
build()
</script>`

/**
 * A quotation (its “ and ” are CSS pseudo-elements, which chrome-devtools-mcp
 * prints under one uid, as on every TodoMVC page) above a list that grows.
 */
export const QUOTE = `<!doctype html><title>Quote</title>
<blockquote><q>Simple things should be simple.</q></blockquote>
<ul id="list"><li>One</li></ul>
<button id="add">Add</button>
<script>
document.getElementById('add').onclick = () => {
  const li = document.createElement('li')
  li.textContent = 'Item ' + (document.querySelectorAll('#list li').length + 1)
  document.getElementById('list').append(li)
}
</script>`
