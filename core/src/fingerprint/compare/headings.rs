//! The rule for headings: matched by (level, text), a reworded heading in
//! the same place reported as changed.

use crate::prelude::*;

use hashbrown::HashMap;
use serde_json::json;

use super::context::Cx;
use super::report::{ChangeKind, ChangedElement};
use crate::fingerprint::model::{Fingerprint, Heading};

impl Cx {
    pub(super) fn headings(
        &mut self,
        b: &Fingerprint,
        c: &Fingerprint,
        landmark_idx: &HashMap<String, String>,
    ) {
        let (bh, ch) = (&b.structure.content.headings, &c.structure.content.headings);
        // Exact (level, text) matches first, counting duplicates.
        let key = |h: &Heading| (h.level, h.text.clone());
        let mut pool: HashMap<(u8, String), Vec<usize>> = HashMap::new();
        for (j, h) in ch.iter().enumerate() {
            pool.entry(key(h)).or_default().push(j);
        }
        for v in pool.values_mut() {
            v.reverse();
        }
        let mut old_match = vec![None; bh.len()];
        let mut new_matched = vec![false; ch.len()];
        for (i, h) in bh.iter().enumerate() {
            if let Some(j) = pool.get_mut(&key(h)).and_then(Vec::pop) {
                old_match[i] = Some(j);
                new_matched[j] = true;
            }
        }
        // Leftovers of the same level between the same matched neighbours
        // are the same heading reworded.
        let mut renamed: Vec<Option<usize>> = vec![None; bh.len()];
        let mut new_cursor = 0usize;
        for i in 0..bh.len() {
            if let Some(j) = old_match[i] {
                new_cursor = new_cursor.max(j + 1);
                continue;
            }
            let limit = (i + 1..bh.len())
                .find_map(|k| old_match[k])
                .unwrap_or(ch.len());
            if let Some(j) =
                (new_cursor..limit).find(|&j| !new_matched[j] && ch[j].level == bh[i].level)
            {
                renamed[i] = Some(j);
                new_matched[j] = true;
                new_cursor = j + 1;
            }
        }
        for (i, was) in bh.iter().enumerate() {
            if old_match[i].is_some() {
                continue;
            }
            self.touched.insert("headings");
            let el = ChangedElement {
                kind: "heading".into(),
                text: Some(was.text.clone()),
                level: Some(was.level),
                selector: None,
            };
            match renamed[i] {
                Some(j) => self.push(
                    ChangeKind::HeadingChanged,
                    el,
                    None,
                    Some(json!(was.text)),
                    Some(json!(ch[j].text)),
                    format!(
                        "Heading h{} changed from '{}' to '{}'",
                        was.level, was.text, ch[j].text
                    ),
                ),
                None => {
                    if let Some(r) = landmark_idx
                        .get(&format!("heading:{}", was.text))
                        .filter(|r| self.gone_regions.contains_key(*r))
                        .cloned()
                    {
                        self.fold(r);
                        continue;
                    }
                    self.push(
                        ChangeKind::HeadingMissing,
                        el,
                        None,
                        None,
                        None,
                        format!("Heading h{} '{}' is no longer present", was.level, was.text),
                    )
                }
            }
        }
        for (j, now) in ch.iter().enumerate() {
            if new_matched[j] {
                continue;
            }
            self.touched.insert("headings");
            self.push(
                ChangeKind::HeadingAdded,
                ChangedElement {
                    kind: "heading".into(),
                    text: Some(now.text.clone()),
                    level: Some(now.level),
                    selector: None,
                },
                None,
                None,
                None,
                format!("New heading h{} '{}'", now.level, now.text),
            );
        }
    }
}
