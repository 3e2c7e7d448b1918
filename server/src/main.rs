use std::sync::atomic::AtomicU32;
use response_diff_server::{ax, browser, site};
fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let s = site::Site::serve(site::bundled_site_dir(), 0)?;
    let pid = AtomicU32::new(0);
    let mut sess = browser::Session::launch(&browser::BrowserConfig::default(), &pid)?;
    let tab = sess.current().tab.clone();
    let url = s.url(&args[1]);
    browser::mark_document(&tab);
    tab.call_method(browser::raw::PageNavigate(serde_json::json!({"url": url})))?;
    browser::wait_for_load(&tab, std::time::Duration::from_secs(10))?;
    if let Some(js) = args.get(2) { browser::evaluate(&tab, js, true, std::time::Duration::from_secs(5))?; }
    let t = std::time::Instant::now();
    let raw = tab.call_method(browser::raw::GetFullAxTree(serde_json::json!({})))?;
    eprintln!("ax {:?}", t.elapsed());
    std::fs::write("/tmp/ax.json", serde_json::to_string_pretty(&raw)?)?;
    let snap = ax::AxSnapshot::parse(raw, Some(&url))?;
    println!("{}", snap.tree().to_aria());
    eprintln!("total {:?}", t.elapsed());
    sess.sync_events();
    let ev = browser::lock(&sess.current().events);
    eprintln!("{:?}", ev.console);
    Ok(())
}
