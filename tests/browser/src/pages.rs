//! Fixture pages and generated pages.

use std::fmt::Write;

use anyhow::{Context, Result};

/// Reads `tests/fixtures/pages/<name>`.
pub fn fixture(name: &str) -> Result<String> {
    let path = crate::fixtures_dir().join("pages").join(name);
    std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))
}

/// A realistic page of about `n` elements (header, nav, footer, and
/// repeated sections with headings, paragraphs, lists of links, cards with
/// buttons — some hidden by CSS — forms and tables).
pub fn generated_page(n: usize) -> String {
    let mut body = String::new();
    let mut count = 0usize;
    // html, head, meta, title, style, body
    count += 6;
    body.push_str("<header><a href=\"/\" class=\"logo\">Big</a><nav aria-label=\"Main\">");
    count += 3;
    for i in 0..12 {
        let _ = write!(body, "<a href=\"/section/{i}\">Section {i}</a>");
        count += 1;
    }
    body.push_str(
        "</nav><button type=\"button\">Sign out</button></header><main><h1>Generated page</h1>",
    );
    count += 3;
    let footer = 4;
    let mut block = 0usize;
    while count + footer < n {
        let b = block;
        let _ = write!(
            body,
            "<section id=\"s{b}\" aria-label=\"Block {b}\"><h2>Block {b}</h2><p>Paragraph for block {b} with <span>inline</span> text.</p>"
        );
        count += 4;
        body.push_str("<ul class=\"links\">");
        count += 1;
        for i in 0..5 {
            let _ = write!(body, "<li><a href=\"/b/{b}/{i}\">Link {b}.{i}</a></li>");
            count += 2;
        }
        body.push_str("</ul><div class=\"cards\">");
        count += 1;
        for i in 0..3 {
            let hidden = if (b + i) % 5 == 0 { " hidden-card" } else { "" };
            let _ = write!(
                body,
                "<div class=\"card{hidden}\"><span>Card {b}.{i}</span><button type=\"button\">Open {b}.{i}</button></div>"
            );
            count += 3;
        }
        let _ = write!(
            body,
            "</div><form class=\"f\"><label>Name {b} <input name=\"n{b}\"></label><label>Mail {b} <input type=\"email\" name=\"m{b}\"></label><button type=\"submit\">Send {b}</button></form>"
        );
        count += 6;
        body.push_str("<table class=\"t\"><thead><tr><th>A</th><th>B</th><th>C</th><th>D</th></tr></thead><tbody>");
        count += 8;
        for r in 0..5 {
            body.push_str("<tr>");
            count += 1;
            for c in 0..4 {
                let _ = write!(body, "<td>{b}-{r}-{c}</td>");
                count += 1;
            }
            body.push_str("</tr>");
        }
        body.push_str("</tbody></table></section>");
        block += 1;
        if count > 200_000 {
            break;
        }
    }
    body.push_str("</main><footer><a href=\"/privacy\">Privacy</a><a href=\"/terms\">Terms</a><span>Generated</span></footer>");
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Generated {n}</title>\
         <style>.hidden-card button {{ display: none; }} .card {{ display: inline-block; margin: 4px; }}</style>\
         </head><body>{body}</body></html>"
    )
}
