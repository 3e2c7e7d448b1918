//! Snapshot patches: a tree diff an agent reads like a diff and a program
//! applies exactly. Elements are addressed by their refs, so a patch needs
//! neither line numbers nor context lines:
//!
//! ```text
//! - [e131] paragraph
//! - [e12 e13 e14]
//! ~ link "Cart (1)" [ref=e83]:
//!     - /url: /index.html#cart
//! + first in [e132]:
//!   - listitem [ref=e535]:
//!     - text: Sencha Kyoto × 1
//! + after [e40]: [e41 e42 e43] as last shown
//! + after [e60]: [e61 .. e95 e97] as last shown
//! ~ order [e52 e50 e53 e51]
//! ~ [e96] +expanded
//! ~ focus [e30]
//! ~ [e4/2/1/1] text: Copied
//! + first in [e18/3]:
//!   - listitem [ref=e24]: Sencha Kyoto × 1
//! ```
//!
//! - **Addresses**: an element without a ref (Playwright gives none to an
//!   empty list, a `generic "Copy path to clipboard"` row and the button
//!   in it, a text-only wrapper) is named by its nearest ancestor with a
//!   ref and its place among the children, counted from 1 in the previous
//!   snapshot (property lines aside), one `/N` a level: `[e18/3]` is the
//!   third child of `e18`, `[e4/2/1/1]` goes three levels down, `[/2]` is
//!   the second element of the top level. An address stands wherever a
//!   ref can (removals, anchors, `as last shown`, order and focus lines);
//!   a `~` line names the element by its address before its line
//!   (`~ [e1/3] generic:`). Addresses name elements of the previous
//!   snapshot where they stood in it, before any line applies; never an
//!   element with a ref (refs never have a `/`).
//! - `- [ref] …`: the element and its subtree are gone (its role and name,
//!   or its first named descendant's after `>`, follow for the reader; only
//!   the ref counts). `- [e12 e13 e14]`: several elements are gone (one
//!   line for all of them). A ref that is not in the previous snapshot
//!   names an element inside one that an insertion restores `as last
//!   shown`, gone from it since (the line follows that insertion, refs
//!   alone): `+ first in [e227]: [e265] as last shown` then `- [e269]`
//!   brings a row back without the button it showed on hover. The writer
//!   says a restore so where that reads shorter than printing it.
//! - `~ <element>`: the element's own line as it is now, in snapshot
//!   syntax, with its property lines (`- /url: …`) when they changed
//!   (without any, it keeps those it had); its children are untouched. It
//!   applies where the element stands after the patch: in its place, or
//!   where an insertion put it (an element restored `as last shown` with
//!   one state flipped is its reference and that one line). Followed by
//!   indented child lines (`[e5] as last shown` allowed among them), the
//!   children are replaced by those: how a change in text without a ref
//!   (a count, "item left" → "items left") is said, and how a parent
//!   under which many children came, went or moved (a re-sorted grid of
//!   flat cells) is said where that is clearly shorter (`choose`).
//! - `~ [ref] -state +state`: the element's own line changed only in bare
//!   states (`[expanded]`, `[checked]`, `[pressed]`, `[selected]`,
//!   `[disabled]`; chrome-devtools-mcp's `expanded`, `checked`,
//!   `disableable disabled`…), which it lost (`-`) and gained (`+`), in
//!   the dialect's spelling without brackets; each gained state goes
//!   where the dialect's printer puts it. Never the focus (`[active]`,
//!   `focusable focused`: `~ focus`). The writer says a line this way
//!   where only such states changed and it reads shorter than the `~`
//!   line (`~ [1_16] -expanded` for `~ uid=1_16 button "POST /pets.json
//!   Create a pet" expandable focusable focused`); like a `~` line, it
//!   applies where the element stands after the patch, restored ones
//!   included. A field emptied loses its value by name, `-value` (in
//!   Playwright's dialect the text after the colon). A state the element
//!   does not have (`-`) or has (`+`) is an error naming the line.
//! - `+ first in [ref]:` / `+ after [ref]:` / `+ first:` (top level): the
//!   indented snapshot lines that follow are inserted there, subtrees whole.
//!   Among them (or right after the colon), `[e41 e42] as last shown`
//!   inserts those elements, subtrees whole, exactly as the latest view
//!   that has each ref showed them: the previous snapshot itself, else the
//!   latest of the *seen* snapshots (see below). A *run* `e61 .. e95`
//!   among those refs (` .. ` between two refs: never a ref itself) stands
//!   for the siblings from `e61` through `e95`, in the order they had in
//!   the first view, the previous snapshot else the latest seen snapshot,
//!   where both are children of one parent, `e61` first, and every child
//!   from one to the other has a ref; each is then restored like a listed
//!   ref. The writer uses a run for 3 or more consecutive restored siblings
//!   that expand back to exactly them, when it is shorter than listing
//!   them (`[e2 .. e41]` for a list of 40 rows shown again; chrome-devtools-mcp's
//!   `[1_5 .. 1_64]`); runs and refs mix (`[e1 e4 .. e9 e12]`). A run no
//!   view has is an error. Indented deeper, the same
//!   line stands for children of a printed element (a container re-sent
//!   because its text changed keeps its rows by reference). An element of
//!   the previous snapshot that an insertion (or a `~` element's children)
//!   names or prints *moved* there: it leaves its old place, subtree and
//!   all, since a ref is on one element. So a table wrapped in a new
//!   container, or a row dragged to another list, costs the line that
//!   places it (`+ after [e40]: [e41] as last shown`), nothing where it was.
//! - `~ order [e52 e50 e53]`: siblings (elements of one parent in the
//!   previous snapshot) that kept their parent but not their order (a
//!   sort, a drag) take the places the listed ones held, in the listed
//!   order; only elements that left their place are listed. Order lines
//!   apply before the other lines, so an insertion's anchor is a sibling
//!   in its new place. Where a few elements moved far (one row dragged to
//!   the end of a long list), they are removed and inserted again by
//!   reference instead, when that is shorter.
//! - `~ focus [ref]` / `~ focus none`: `[active]` moved. Every element of
//!   the previous snapshot loses `[active]`, and the named one (an element
//!   of the previous snapshot) gains it; the rest of its line is unchanged.
//!   Inserted and `~` lines carry their own `[active]`, and a printed line
//!   that carries it takes the focus: without a focus line, every element
//!   of the previous snapshot that the patch does not print loses
//!   `[active]` (so a field typed into costs its `~` line alone).
//!
//! **Seen snapshots** (restore by reference). A patch may name elements the
//! agent was already shown in this conversation instead of printing them
//! again. The writer ([`snapshot_patch_with`]) and the applier
//! ([`apply_patch_with`]) get the same list: the snapshots the agent has
//! rebuilt earlier in the conversation (each one a full aria text, as the
//! agent's view stood after a response), oldest first. A restored ref is
//! looked up in the latest of them that has it, and the writer uses it only
//! when that subtree is, byte for byte, what the new snapshot has there.
//! A host that trims its context (so the agent may no longer have those
//! snapshots) turns restoring off ([`PatchOptions::restore`]): then only
//! elements of the previous snapshot, which every applier has, may be named
//! `as last shown`.
//!
//! [`snapshot_patch`] only returns a patch that [`apply_patch`] turns back
//! into the new snapshot byte for byte, trailing newlines aside (it
//! checks). A change to an element without a ref is said by its address,
//! or by replacing its nearest ancestor that has one when that is shorter;
//! anything it cannot say either way makes it return `None`, and the
//! caller shows a line diff instead. An element moved under another parent is placed at the new
//! one by reference (`as last shown`) where it did not change, printed
//! where it did; it needs no removal line.

mod address;
mod apply;
mod change;
mod choose;
mod flip;
mod nodes;
mod options;
mod order;
mod read;
mod restore;
mod runs;
mod seen;
#[cfg(test)]
mod tests;
mod words;
mod write;

pub use apply::{apply_patch, apply_patch_with};
pub(crate) use choose::{Archive, snapshot_patch_archived};
pub use choose::{snapshot_patch, snapshot_patch_with};
pub use options::{MAX_PATCH_BYTES, PatchOptions, PatchRequest, SnapshotPatch};
