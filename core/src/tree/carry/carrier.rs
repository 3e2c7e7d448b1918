//! The carrier: one page memory per key, under one memory cap.

use super::super::model::Tree;
use super::carried::{CarryOptions, RefCarry, RefSource};
use super::config::{CarrierConfig, RETIRED_SHARE};
use super::page::Page;
use crate::Result;
use crate::prelude::*;
use crate::sync::{Mutex, lock};

/// The key a host files a tab's page under: the tab, U+001F, and the URL
/// without its fragment. So a page seen before in that tab (back, a return
/// visit, a reload) is matched against its own views and gets its refs
/// back, and an in-page anchor is the same page.
///
/// ```
/// use response_diff::tree::carrier_key;
/// assert_eq!(carrier_key("tab1", "http://x/a?q=1#top"), "tab1\u{1f}http://x/a?q=1");
/// assert_eq!(carrier_key("tab1", "http://x/a"), carrier_key("tab1", "http://x/a#b"));
/// ```
pub fn carrier_key(tab: &str, url: &str) -> String {
    let page = url.split('#').next().unwrap_or(url);
    format!("{tab}\u{1f}{page}")
}

/// The line a host puts before a snapshot whose refs it could not carry
/// (the core could not read it), which it then passes on as the source
/// wrote it: the agent acts on the source's own refs. The host also drops
/// that page's carried map ([`RefCarrier::clear`]), so a later ref means
/// what the agent was last shown.
pub const OWN_REFS_NOTE: &str = "# This snapshot could not be read for a diff: it is the page's own text, and its refs are the page's own; use them as shown.";

/// Keeps the recent views of each page and carries refs over to new
/// snapshots of it (see the module docs). `Send + Sync`: hosts share one
/// across threads; calls are serialized by an internal lock.
///
/// ```
/// use response_diff::tree::{parse_aria, RefCarrier};
/// let carrier = RefCarrier::new();
/// let v1 = parse_aria("- list [ref=n1]:\n  - listitem \"Tea\" [ref=n2]\n  - listitem \"Cake\" [ref=n3]", false).unwrap();
/// let v2 = parse_aria("- list [ref=n4]:\n  - listitem \"Cake\" [ref=n5]", false).unwrap();
/// let v3 = parse_aria("- list [ref=n6]:\n  - listitem \"Tea\" [ref=n7]\n  - listitem \"Cake\" [ref=n8]", false).unwrap();
/// let first = carrier.carry("tab-1", &v1).unwrap();
/// assert_eq!(first.tree, v1); // a first view keeps the node ids as refs
/// assert_eq!(carrier.carry("tab-1", &v2).unwrap().tree.to_aria(), "- list [ref=n1]:\n  - listitem \"Cake\" [ref=n3]");
/// // Tea comes back from the older view with its old ref.
/// assert_eq!(carrier.carry("tab-1", &v3).unwrap().tree, v1);
/// ```
#[derive(Debug)]
pub struct RefCarrier {
    inner: Mutex<Inner>,
    config: CarrierConfig,
}

#[derive(Debug)]
struct Inner {
    pages: lru::LruCache<String, Page>,
    bytes: usize,
}

impl Default for RefCarrier {
    fn default() -> Self {
        RefCarrier::new()
    }
}

impl RefCarrier {
    /// A carrier with the default limits (8 views per key, 8 MiB).
    pub fn new() -> Self {
        RefCarrier::with_config(CarrierConfig::default())
    }

    /// A carrier with these limits (`views_per_key` at least 1).
    pub fn with_config(mut config: CarrierConfig) -> Self {
        config.views_per_key = config.views_per_key.max(1);
        RefCarrier {
            inner: Mutex::new(Inner {
                pages: lru::LruCache::unbounded(),
                bytes: 0,
            }),
            config,
        }
    }

    /// The limits in force.
    pub fn config(&self) -> &CarrierConfig {
        &self.config
    }

    /// Gives the elements of `current` (a snapshot of page `key` whose refs
    /// are the host's node ids) the refs they had in the recent views of
    /// `key`, new refs to new elements, and records the result as the
    /// newest view. Errors only when two elements share a node id.
    pub fn carry(&self, key: &str, current: &Tree) -> Result<RefCarry> {
        self.carry_in(key, None, current)
    }

    /// [`RefCarrier::carry`], saying which document `current` is of (any
    /// string that differs between documents, such as a load's id): then
    /// [`RefCarrier::lookup`] also finds refs that only earlier views of
    /// this document showed, since their node ids still name those nodes.
    ///
    /// ```
    /// use response_diff::tree::{parse_aria, RefCarrier};
    /// let c = RefCarrier::new();
    /// c.carry_document("k", "doc-1", &parse_aria("- button \"A\" [ref=n1]", false).unwrap()).unwrap();
    /// c.carry_document("k", "doc-1", &parse_aria("- button \"B\" [ref=n2]", false).unwrap()).unwrap();
    /// let a = c.lookup("k", "n1").unwrap();
    /// assert_eq!((a.node_id.as_str(), a.latest), ("n1", false));
    /// // A new document: what the old one showed names nothing in it.
    /// c.carry_document("k", "doc-2", &parse_aria("- button \"B\" [ref=n1]", false).unwrap()).unwrap();
    /// assert_eq!(c.source_ref("k", "n2"), Some("n1".to_owned()));
    /// assert_eq!(c.lookup("k", "n1"), None);
    /// ```
    pub fn carry_document(&self, key: &str, document: &str, current: &Tree) -> Result<RefCarry> {
        self.carry_in(key, Some(document), current)
    }

    fn carry_in(&self, key: &str, document: Option<&str>, current: &Tree) -> Result<RefCarry> {
        let mut inner = lock(&self.inner);
        let options = CarryOptions::stable_ids(self.config.stable_ids);
        let page = inner.pages.get_or_insert_mut(key.to_owned(), Page::default);
        let before = page.bytes;
        let (carry, mut view) = page.assign(current, options)?;
        if let Some(d) = document {
            view.bytes += 24 + d.len();
            view.document = Some(d.to_owned());
        }
        page.push(
            view,
            self.config.views_per_key,
            self.config.max_stored_bytes / RETIRED_SHARE,
        );
        let after = page.bytes;
        inner.bytes = inner.bytes + after - before;
        self.evict(&mut inner, key);
        Ok(carry)
    }

    /// Keeps the total under the cap: other keys first (least recently
    /// used first), then the retired elements of `key`, then its oldest
    /// views.
    fn evict(&self, inner: &mut Inner, key: &str) {
        while inner.bytes > self.config.max_stored_bytes {
            let lru_is_key = inner.pages.peek_lru().is_some_and(|(k, _)| k == key);
            if !lru_is_key {
                match inner.pages.pop_lru() {
                    Some((_, p)) => inner.bytes -= p.bytes,
                    None => break,
                }
                continue;
            }
            let Some(page) = inner.pages.peek_mut(key) else {
                break;
            };
            if page.views.len() <= 1 && page.retired_view.is_none() {
                break;
            }
            let before = page.bytes;
            page.drop_oldest();
            inner.bytes -= before - page.bytes;
        }
    }

    /// What the carried ref `carried_ref` names in page `key`: the element
    /// of the key's latest view that was given that ref, with its node id
    /// in that view. A ref the latest view does not show is looked up in
    /// the views before it (newest first) while they are of the same
    /// document as the latest ([`RefCarrier::carry_document`]): its node id
    /// still names that node, which may still be on the page (the server
    /// acts on it while it is attached). Views of another document, or
    /// carried without one, never count: a host whose ids restart per
    /// document (Playwright numbers refs from `e1` in each) would act on
    /// another element. `None` when no such view showed the ref.
    ///
    /// ```
    /// use response_diff::tree::{parse_aria, RefCarrier};
    /// let c = RefCarrier::new();
    /// c.carry("k", &parse_aria("- button \"Add\" [ref=n1]", false).unwrap()).unwrap();
    /// // Rebuilt: a new node id, the same ref for the agent.
    /// c.carry("k", &parse_aria("- button \"Add\" [ref=n7]", false).unwrap()).unwrap();
    /// let s = c.lookup("k", "n1").unwrap();
    /// assert_eq!((s.node_id.as_str(), s.role.as_str(), s.name.as_str(), s.latest), ("n7", "button", "Add", true));
    /// assert_eq!(c.lookup("k", "n7"), None); // never shown to the agent
    /// ```
    pub fn lookup(&self, key: &str, carried_ref: &str) -> Option<RefSource> {
        // A peek: looking a ref up is not a use that keeps a page from eviction.
        let mut inner = lock(&self.inner);
        inner.pages.peek_mut(key)?.source(carried_ref)
    }

    /// The source's node id that `carried_ref` names in page `key` (see
    /// [`RefCarrier::lookup`] for which views count): what a host acts on
    /// when the agent names that ref.
    ///
    /// ```
    /// use response_diff::tree::{parse_aria, RefCarrier};
    /// let c = RefCarrier::new();
    /// c.carry("k", &parse_aria("- button \"Add\" [ref=e1]", false).unwrap()).unwrap();
    /// c.carry("k", &parse_aria("- button \"Add\" [ref=e5]", false).unwrap()).unwrap();
    /// assert_eq!(c.source_ref("k", "e1").as_deref(), Some("e5"));
    /// assert_eq!(c.source_ref("other", "e1"), None);
    /// ```
    pub fn source_ref(&self, key: &str, carried_ref: &str) -> Option<String> {
        self.lookup(key, carried_ref).map(|s| s.node_id)
    }

    /// Forgets `key`: its views and the refs it handed out (a new snapshot
    /// of it starts over). Returns whether it was kept.
    pub fn clear(&self, key: &str) -> bool {
        let mut inner = lock(&self.inner);
        match inner.pages.pop(key) {
            Some(p) => {
                inner.bytes -= p.bytes;
                true
            }
            None => false,
        }
    }

    /// Bytes charged against [`CarrierConfig::max_stored_bytes`].
    pub fn memory_usage(&self) -> usize {
        lock(&self.inner).bytes
    }
}
