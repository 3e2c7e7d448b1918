//! The `mcp` command's flags besides the browser's (`crate::cli`) and the
//! deployment's ([`super::ServeFlags`]): what pages get ([`PageFlags`]),
//! what responses carry ([`OutputFlags`]), and @playwright/mcp's flags
//! this server cannot honour ([`RefusedFlags`]), which are accepted by the
//! parser only to be refused at start-up with the reason.

use std::path::PathBuf;

use clap::Args;

use crate::options::{Codegen, ConsoleLevel, FilePaths, ImageResponses, SnapshotMode};

/// What every page gets: a device, permissions, scripts, the test id
/// attribute, file access.
#[derive(Args, Clone, Debug, Default)]
#[command(next_help_heading = "Pages")]
pub struct PageFlags {
    /// Device to emulate, a Playwright device name, e.g. "iPhone 15":
    /// viewport, user agent, scale, mobile and touch (--viewport-size and
    /// --user-agent win).
    #[arg(long, value_name = "DEVICE")]
    pub device: Option<String>,
    /// Emulate a generic mobile device (Pixel 10). Mobile pages are
    /// usually lighter, which saves tokens. Cannot be combined with
    /// --device.
    #[arg(long)]
    pub mobile: bool,
    /// Permissions to grant to the browser context, comma-separated, e.g.
    /// geolocation,clipboard-read,clipboard-write.
    #[arg(long, value_delimiter = ',', num_args = 1.., value_name = "PERMISSIONS")]
    pub grant_permissions: Vec<String>,
    /// JavaScript file run in every page before the page's own scripts
    /// (repeatable).
    #[arg(long, num_args = 1.., value_name = "PATH")]
    pub init_script: Vec<PathBuf>,
    /// Block service workers.
    #[arg(long)]
    pub block_service_workers: bool,
    /// Allow files outside the workspace (the upload roots; default the
    /// working directory) and navigation to file:// URLs, which are
    /// blocked by default.
    #[arg(long)]
    pub allow_unrestricted_file_access: bool,
    /// The attribute of test ids: generated code locates an element that
    /// has it with getByTestId (default data-testid).
    #[arg(long, value_name = "ATTRIBUTE")]
    pub test_id_attribute: Option<String>,
    /// Locale, e.g. de-DE (the config file's contextOptions.locale).
    #[arg(long, value_name = "LOCALE", hide = true)]
    pub locale: Option<String>,
    /// Time zone, e.g. Europe/Berlin (contextOptions.timezoneId).
    #[arg(long, value_name = "ID", hide = true)]
    pub timezone_id: Option<String>,
    /// LATITUDE,LONGITUDE[,ACCURACY] (contextOptions.geolocation).
    #[arg(long, value_name = "LAT,LON", hide = true, value_parser = crate::emulation::parse_geolocation, allow_hyphen_values = true)]
    pub geolocation: Option<(f64, f64, f64)>,
    /// light, dark or no-preference (contextOptions.colorScheme).
    #[arg(long, value_name = "SCHEME", hide = true, value_parser = ["light", "dark", "no-preference"])]
    pub color_scheme: Option<String>,
    /// Mobile emulation on or off (contextOptions.isMobile).
    #[arg(long, value_name = "BOOL", hide = true)]
    pub is_mobile: Option<bool>,
    /// Touch on or off (contextOptions.hasTouch).
    #[arg(long, value_name = "BOOL", hide = true)]
    pub has_touch: Option<bool>,
    /// Device pixels per CSS pixel (contextOptions.deviceScaleFactor).
    #[arg(long, value_name = "N", hide = true)]
    pub device_scale_factor: Option<f64>,
}

/// What responses carry.
#[derive(Args, Clone, Debug, Default)]
#[command(next_help_heading = "Responses")]
pub struct OutputFlags {
    /// What action responses carry of the page: diff (the smallest
    /// lossless answer against what the agent last saw; the full page after
    /// a navigation to another document), full (the whole snapshot every
    /// time) or none (browser_snapshot only).
    #[arg(long, value_enum, value_name = "MODE")]
    pub snapshot_mode: Option<SnapshotMode>,
    /// Include each element's bounding box as [box=x,y,width,height] in
    /// snapshots (viewport-relative CSS pixels).
    #[arg(long)]
    pub snapshot_boxes: bool,
    /// Console messages to return: error, warning, info (the default) or
    /// debug; each level includes the more severe ones.
    #[arg(long, value_enum, value_name = "LEVEL")]
    pub console_level: Option<ConsoleLevel>,
    /// Whether to send images (screenshots) to the client: allow (the
    /// default), omit, or only (a response that carries an image is the
    /// image alone).
    #[arg(long, value_enum, value_name = "MODE")]
    pub image_responses: Option<ImageResponses>,
    /// Language of the generated code lines: typescript, python, java,
    /// csharp or none. Given, it turns the code lines on in every response.
    #[arg(long, value_enum, value_name = "LANG")]
    pub codegen: Option<Codegen>,
    /// How file paths are printed in results: relative to the working
    /// directory (the default) or absolute.
    #[arg(long, value_enum, value_name = "MODE")]
    pub file_paths: Option<FilePaths>,
    /// Remove the oldest output files when the output directory holds more
    /// than this many bytes.
    #[arg(long, value_name = "BYTES")]
    pub output_max_size: Option<u64>,
    /// Save the session (each tool call and its response) as session.md in
    /// a session-<time> folder of the output directory.
    #[arg(long)]
    pub save_session: bool,
    /// A dotenv file of secrets: a listed value never appears in a
    /// response (it reads <secret>NAME</secret>), and an agent types it by
    /// its name.
    #[arg(long, value_name = "PATH")]
    pub secrets: Option<PathBuf>,
    /// One secret, NAME=VALUE (the config file's secrets).
    #[arg(long = "secret", value_name = "NAME=VALUE", hide = true)]
    pub secret: Vec<String>,
    /// Accepted: this server never collects or exposes tools a page
    /// registers through WebMCP.
    #[arg(long)]
    pub no_webmcp: bool,
    /// Default expectation (JSON) for every call, e.g.
    /// '{"diffOptions":{"enabled":true}}'. Calls and batches refine it.
    #[arg(long, value_name = "JSON")]
    pub default_expectation: Option<String>,
    /// Opt-in tools, comma-separated: vision (coordinate mouse), pdf,
    /// storage (browser_storage_state) (default: none).
    #[arg(long, value_name = "LIST")]
    pub caps: Option<String>,
    /// The old name of --caps vision.
    #[arg(long, hide = true)]
    pub vision: bool,
    /// Print password field values as they are (for testing a page);
    /// by default they are masked in every response.
    #[arg(long)]
    pub reveal_passwords: bool,
    /// Keep named fingerprint baselines in this directory (default: memory only).
    #[arg(long, value_name = "DIR")]
    pub baseline_dir: Option<PathBuf>,
}

/// @playwright/mcp's flags that cannot apply here: parsed so that they
/// are refused with the reason ([`RefusedFlags::refusal`]) rather than as
/// "unexpected argument".
#[derive(Args, Clone, Debug, Default)]
pub struct RefusedFlags {
    /// Refused: the Playwright Extension.
    #[arg(long, hide = true)]
    pub extension: bool,
    /// Refused: Playwright's own browser-server protocol.
    #[arg(long, value_name = "ENDPOINT", hide = true)]
    pub endpoint: Option<String>,
    /// Refused: a TypeScript file run on Playwright's page object.
    #[arg(long, num_args = 1.., value_name = "PATH", hide = true)]
    pub init_page: Vec<PathBuf>,
    /// Refused: headers for --endpoint.
    #[arg(long, num_args = 1.., value_name = "HEADER", hide = true)]
    pub remote_header: Vec<String>,
}

/// Why each refused flag cannot apply, and what to use instead (the
/// clap id, the flag, the line).
pub const REFUSED: &[(&str, &str, &str)] = &[
    (
        "extension",
        "extension",
        "the Playwright Extension is a browser extension this server does not speak to; start Chrome with --remote-debugging-port=9222 and pass --cdp-endpoint http://127.0.0.1:9222",
    ),
    (
        "endpoint",
        "endpoint",
        "it is Playwright's own browser-server protocol, not the Chrome DevTools Protocol this server speaks; pass the browser's CDP endpoint with --cdp-endpoint",
    ),
    (
        "init_page",
        "init-page",
        "it runs a TypeScript file on Playwright's page object, which this server does not have; put the code in a JavaScript file and pass --init-script",
    ),
    (
        "remote_header",
        "remote-header",
        "it goes with --endpoint, Playwright's own protocol, which this server does not speak; for a CDP endpoint use --cdp-endpoint",
    ),
];

impl RefusedFlags {
    /// Whether the flag with this clap id was given.
    fn given(&self, id: &str) -> bool {
        match id {
            "extension" => self.extension,
            "endpoint" => self.endpoint.is_some(),
            "init_page" => !self.init_page.is_empty(),
            "remote_header" => !self.remote_header.is_empty(),
            _ => false,
        }
    }

    /// The refusal of the first refused flag given: `(clap id, flag, why)`.
    pub fn refusal(&self) -> Option<(&'static str, &'static str, &'static str)> {
        REFUSED.iter().copied().find(|(id, _, _)| self.given(id))
    }
}

/// Why `--no-webmcp`, the one @playwright/mcp flag accepted here with
/// nothing to change, does nothing (said on stderr at start-up when given;
/// the README's table).
pub const NO_WEBMCP: &str = "this server never collects or exposes tools a page registers through WebMCP, so there is nothing to turn off";
