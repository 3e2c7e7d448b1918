//! The tree diff bench's inputs, shared with `examples/tree_cpu.rs`: a
//! shop-like page of `n` elements and a copy with 1 % of them changed.

use response_diff::tree::{Element, State, Tree};

/// A shop-like page: sections of product lists, each item an article with a
/// heading, two paragraphs, a link and a button; refs numbered in order.
pub fn page(elements: usize) -> Tree {
    let mut n = 0usize;
    let mut next_ref = || {
        n += 1;
        Some(format!("e{n}"))
    };
    let mut roots = Vec::new();
    let mut count = 0;
    let mut section = 0;
    while count < elements {
        section += 1;
        let mut list = Element::new("list", format!("Section {section}"));
        list.aria_ref = next_ref();
        count += 1;
        for item in 0..20 {
            if count >= elements {
                break;
            }
            let mut li = Element::new("listitem", "");
            li.aria_ref = next_ref();
            let mut article = Element::new("article", format!("Product {section}-{item}"));
            article.aria_ref = next_ref();
            let mut h = Element::new("heading", format!("Product {section}-{item}"));
            h.states.push(State::with_value("level", "2"));
            h.aria_ref = next_ref();
            let mut price = Element::new("paragraph", "");
            price.value = Some(format!("${}.99", item + 10));
            price.aria_ref = next_ref();
            let mut stock = Element::new("paragraph", "");
            stock.value = Some("In stock".into());
            stock.aria_ref = next_ref();
            let mut link = Element::new("link", "Details");
            link.aria_ref = next_ref();
            link.states.push(State::with_value("cursor", "pointer"));
            link.props.push(response_diff::tree::Prop::new(
                "url",
                format!("/p/{section}/{item}"),
            ));
            let mut button = Element::new("button", "Add to cart");
            button.aria_ref = next_ref();
            article.children = vec![h, price, stock, link, button];
            li.children.push(article);
            list.children.push(li);
            count += 7;
        }
        roots.push(list);
    }
    Tree::new(roots)
}

/// 1 % of the elements changed: values, renames, removals and insertions.
pub fn changed(old: &Tree) -> Tree {
    let mut new = old.clone();
    let total = old.len();
    let mut budget = total / 100;
    let mut fresh = 1_000_000;
    for (li_n, list) in new.roots.iter_mut().enumerate() {
        if budget == 0 {
            break;
        }
        if li_n % 3 != 0 {
            continue;
        }
        // a value change, a rename, a removed item (8 elements), an inserted item.
        let first = &mut list.children[0].children[0];
        first.children[1].value = Some("$1.00".into());
        first.children[4].name = "Added".into();
        budget = budget.saturating_sub(2);
        if list.children.len() > 5 && budget >= 16 {
            list.children.remove(3);
            let mut li = Element::new("listitem", "");
            li.aria_ref = Some(format!("e{fresh}"));
            fresh += 1;
            let mut b = Element::new("button", "New offer");
            b.aria_ref = Some(format!("e{fresh}"));
            fresh += 1;
            li.children.push(b);
            list.children.insert(7, li);
            budget -= 10;
        }
    }
    new
}
