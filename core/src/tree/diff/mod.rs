//! Tree diff: stable element identity and field-level changes (docs/DECISIONS.md D12, D13).
//!
//! Identity, in order:
//! 1. **Refs**, when both trees carry refs and [`IdentityMode::Refs`] is on.
//! 2. **Content hash**: blake3 of role + name + description + the ancestors'
//!    (role, name) path. Elements sharing a hash are paired in document
//!    order like occurrence indexes, but aligned on their content first
//!    (a sequence diff), so that an item inserted among duplicates does not
//!    shift the pairing of the ones after it; pairs under matched parents
//!    are preferred.
//! 3. **Positional rename**: leftovers with the same role under the same
//!    matched parent, between the same matched siblings, are the same element
//!    renamed: `changed`, not removed + added.
//!
//! Value is not part of the identity, so a value change is a `changed`.

mod apply;
mod carry_match;
mod changes;
mod flat;
mod matching;
mod model;
mod rewrap;

pub(crate) use carry_match::match_for_carry;
pub use changes::{diff, diff_with};
pub(crate) use changes::{matched, name_text};
pub(crate) use flat::ITEM_ROLES;
pub(crate) use matching::STATIC_ROLES;
pub use model::{
    Added, ElementContext, Field, IdentityMode, Parent, Removed, TreeChange, TreeDiff,
    TreeDiffOptions,
};
