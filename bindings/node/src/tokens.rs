//! Token estimates.

use napi_derive::napi;

use crate::text::Text;

/// Estimated tokens of `text`: UTF-8 bytes / 4, rounded up (the label to
/// print next to it is "estimated tokens (bytes/4)"). Reports should count
/// with a real tokenizer; this is the cheap default the library uses.
///
/// It also measures what crossing into the addon costs: the text is
/// converted exactly as `detect` converts it, and nothing else is done.
#[napi]
pub fn estimate_tokens(#[napi(ts_arg_type = "string")] text: Text) -> f64 {
    response_diff::tokens::estimate(&text.0) as f64
}
