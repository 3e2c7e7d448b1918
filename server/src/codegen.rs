//! The "Ran Playwright code" lines, in the language of `--codegen`
//! (@playwright/mcp's flag): TypeScript (the default), Python (sync API),
//! Java or C#.
//!
//! An action says what it did as a few [`Step`]s (a receiver, a method,
//! arguments and options, language-neutral), and [`Code::render`] prints
//! them the way each Playwright library spells them: `page.getByRole` /
//! `page.get_by_role` / `page.getByRole(AriaRole.BUTTON, …)` /
//! `page.GetByRole(AriaRole.Button, …)`, options as an object, keyword
//! arguments, an options class or an object initializer. Written here
//! rather than taken from Playwright's generators: those work on
//! recorded actions and selectors, not on the steps this server runs.
//!
//! A secret typed by its name (`--secrets`) is printed as the variable
//! that holds it (`process.env['NAME']`, `os.environ["NAME"]`, …), as
//! @playwright/mcp does, never as its value.

use crate::options::Codegen;

/// How an element is found: by role and name, or by test id
/// (`--test-id-attribute`).
#[derive(Debug, Clone, PartialEq)]
pub struct Locator {
    /// The ARIA role (`button`).
    pub role: String,
    /// The accessible name (may be empty).
    pub name: String,
    /// The element's test id, when it has one: it is used instead.
    pub test_id: Option<String>,
}

/// An argument or an option's value.
#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    /// A string.
    Str(String),
    /// A number, as printed (`12`, `3.5`).
    Num(String),
    /// true or false.
    Bool(bool),
    /// A secret typed by its name: the variable that holds it.
    Secret(String),
    /// Strings (`selectOption`'s values).
    Strs(Vec<String>),
    /// File paths (`setFiles`).
    Paths(Vec<String>),
    /// One file path (`path` of `pdf`, `storageState`).
    Path(String),
    /// A value of a Playwright enum: the Java/C# type and the value
    /// (`MouseButton`, `right`).
    Enum(&'static str, String),
    /// An element (`dragTo`'s target).
    Locator(Locator),
    /// A width and a height (`setViewportSize`).
    Size(u32, u32),
    /// No value (`emulateMedia`'s option cleared).
    Null,
    /// Strings by string key (`drop`'s data by MIME type).
    Map(Vec<(String, String)>),
}

/// What a step acts on.
#[derive(Debug, Clone, PartialEq)]
pub enum Recv {
    /// The page.
    Page,
    /// The page's keyboard.
    Keyboard,
    /// The page's mouse.
    Mouse,
    /// The open dialog.
    Dialog,
    /// The open file chooser.
    FileChooser,
    /// The page's browser context.
    Context,
    /// An element found by a locator the agent's ref stands for, when
    /// its role and name are not known (`locator`).
    Element,
    /// An element.
    Locator(Locator),
}

/// One call: `receiver.method(args, options)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// What it acts on.
    pub recv: Recv,
    /// The method, in camelCase (`selectOption`).
    pub method: &'static str,
    /// Positional arguments.
    pub args: Vec<Arg>,
    /// Options (camelCase names) and the Java class that carries them
    /// (`Locator.ClickOptions`).
    pub opts: Vec<(&'static str, Arg)>,
    /// The Java options class, when there are options.
    pub java_opts: &'static str,
}

impl Step {
    /// A call without options.
    pub fn new(recv: Recv, method: &'static str, args: Vec<Arg>) -> Step {
        Step {
            recv,
            method,
            args,
            opts: Vec::new(),
            java_opts: "",
        }
    }

    /// The same call with options (none given: left as it is).
    pub fn opts(mut self, java_class: &'static str, opts: Vec<(&'static str, Arg)>) -> Step {
        self.opts = opts;
        self.java_opts = java_class;
        self
    }
}

/// The code of one action: its steps, in order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Code(pub Vec<Step>);

impl From<Step> for Code {
    fn from(s: Step) -> Code {
        Code(vec![s])
    }
}

impl Code {
    /// The lines in `lang` (TypeScript for [`Codegen::None`], which shows
    /// no code anyway).
    pub fn render(&self, lang: Codegen) -> String {
        self.0
            .iter()
            .map(|s| step(s, lang))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// A string literal (JSON's escapes read the same in all four languages).
fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

fn snake(camel: &str) -> String {
    let mut out = String::new();
    for c in camel.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

fn pascal(camel: &str) -> String {
    let mut c = camel.chars();
    match c.next() {
        Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
        None => String::new(),
    }
}

fn locator(l: &Locator, lang: Codegen) -> String {
    if let Some(id) = &l.test_id {
        let id = quoted(id);
        return match lang {
            Codegen::Python => format!("page.get_by_test_id({id})"),
            Codegen::Csharp => format!("page.GetByTestId({id})"),
            _ => format!("page.getByTestId({id})"),
        };
    }
    let named = !l.name.is_empty();
    let name = quoted(&l.name);
    match lang {
        Codegen::Python if named => format!("page.get_by_role(\"{}\", name={name})", l.role),
        Codegen::Python => format!("page.get_by_role(\"{}\")", l.role),
        Codegen::Java if named => format!(
            "page.getByRole(AriaRole.{}, new Page.GetByRoleOptions().setName({name}))",
            l.role.to_ascii_uppercase()
        ),
        Codegen::Java => format!("page.getByRole(AriaRole.{})", l.role.to_ascii_uppercase()),
        Codegen::Csharp if named => format!(
            "page.GetByRole(AriaRole.{}, new() {{ Name = {name} }})",
            pascal(&l.role)
        ),
        Codegen::Csharp => format!("page.GetByRole(AriaRole.{})", pascal(&l.role)),
        _ if named => format!("page.getByRole('{}', {{ name: {name} }})", l.role),
        _ => format!("page.getByRole('{}')", l.role),
    }
}

fn list(items: impl Iterator<Item = String>, lang: Codegen, java_type: &str) -> String {
    let items: Vec<String> = items.collect();
    match lang {
        Codegen::Java => format!("new {java_type}[] {{{}}}", items.join(", ")),
        Codegen::Csharp => format!("new[] {{ {} }}", items.join(", ")),
        Codegen::Python => format!("[{}]", items.join(", ")),
        _ => format!("[{}]", items.join(",")),
    }
}

fn arg(a: &Arg, lang: Codegen) -> String {
    match a {
        Arg::Str(s) => quoted(s),
        Arg::Num(n) => n.clone(),
        Arg::Bool(b) => match lang {
            Codegen::Python => if *b { "True" } else { "False" }.to_owned(),
            _ => b.to_string(),
        },
        Arg::Secret(name) => match lang {
            Codegen::Python => format!("os.environ[{}]", quoted(name)),
            Codegen::Java => format!("System.getenv({})", quoted(name)),
            Codegen::Csharp => format!("Environment.GetEnvironmentVariable({})", quoted(name)),
            _ => format!("process.env['{name}']"),
        },
        Arg::Strs(v) => list(v.iter().map(|s| quoted(s)), lang, "String"),
        Arg::Paths(v) => list(
            v.iter().map(|p| match lang {
                Codegen::Java => format!("Paths.get({})", quoted(p)),
                _ => quoted(p),
            }),
            lang,
            "Path",
        ),
        Arg::Path(p) => match lang {
            Codegen::Java => format!("Paths.get({})", quoted(p)),
            _ => quoted(p),
        },
        Arg::Enum(ty, v) => match lang {
            Codegen::Java => format!("{ty}.{}", v.to_ascii_uppercase()),
            Codegen::Csharp => format!("{ty}.{}", pascal(v)),
            Codegen::Python => quoted(v),
            _ => format!("'{v}'"),
        },
        Arg::Locator(l) => locator(l, lang),
        Arg::Size(w, h) => match lang {
            Codegen::Java | Codegen::Csharp => format!("{w}, {h}"),
            Codegen::Python => format!("{{\"width\": {w}, \"height\": {h}}}"),
            _ => format!("{{ width: {w}, height: {h} }}"),
        },
        Arg::Null => match lang {
            Codegen::Python => "None".to_owned(),
            _ => "null".to_owned(),
        },
        Arg::Map(pairs) => {
            let (k, v): (Vec<String>, Vec<String>) =
                pairs.iter().map(|(k, v)| (quoted(k), quoted(v))).unzip();
            let pairs = k.iter().zip(&v);
            match lang {
                Codegen::Java => format!(
                    "Map.of({})",
                    pairs
                        .map(|(k, v)| format!("{k}, {v}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                Codegen::Csharp => format!(
                    "new Dictionary<string, string> {{ {} }}",
                    pairs
                        .map(|(k, v)| format!("[{k}] = {v}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                _ => format!(
                    "{{ {} }}",
                    pairs
                        .map(|(k, v)| format!("{k}: {v}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            }
        }
    }
}

fn recv(r: &Recv, lang: Codegen) -> String {
    let (ts, py, java, cs) = match r {
        Recv::Page => ("page", "page", "page", "page"),
        Recv::Keyboard => (
            "page.keyboard",
            "page.keyboard",
            "page.keyboard()",
            "page.Keyboard",
        ),
        Recv::Mouse => ("page.mouse", "page.mouse", "page.mouse()", "page.Mouse"),
        Recv::Dialog => ("dialog", "dialog", "dialog", "dialog"),
        Recv::FileChooser => ("fileChooser", "file_chooser", "fileChooser", "fileChooser"),
        Recv::Context => (
            "page.context()",
            "page.context",
            "page.context()",
            "page.Context",
        ),
        Recv::Element => ("locator", "locator", "locator", "locator"),
        Recv::Locator(l) => return locator(l, lang),
    };
    match lang {
        Codegen::Python => py,
        Codegen::Java => java,
        Codegen::Csharp => cs,
        _ => ts,
    }
    .to_owned()
}

fn step(s: &Step, lang: Codegen) -> String {
    let mut args: Vec<String> = s.args.iter().map(|a| arg(a, lang)).collect();
    if !s.opts.is_empty() {
        let opts = &s.opts;
        match lang {
            Codegen::Python => args.extend(
                opts.iter()
                    .map(|(k, v)| format!("{}={}", snake(k), arg(v, lang))),
            ),
            Codegen::Java => {
                let setters: String = opts
                    .iter()
                    .map(|(k, v)| format!(".set{}({})", pascal(k), arg(v, lang)))
                    .collect();
                args.push(format!("new {}(){setters}", s.java_opts));
            }
            Codegen::Csharp => {
                let fields: Vec<String> = opts
                    .iter()
                    .map(|(k, v)| format!("{} = {}", pascal(k), arg(v, lang)))
                    .collect();
                args.push(format!("new() {{ {} }}", fields.join(", ")));
            }
            _ => {
                let fields: Vec<String> = opts
                    .iter()
                    .map(|(k, v)| format!("{k}: {}", arg(v, lang)))
                    .collect();
                args.push(format!("{{ {} }}", fields.join(", ")));
            }
        }
    }
    let args = args.join(", ");
    let r = recv(&s.recv, lang);
    match lang {
        Codegen::Python => format!("{r}.{}({args})", snake(s.method)),
        Codegen::Java => format!("{r}.{}({args});", s.method),
        Codegen::Csharp => format!("await {r}.{}Async({args});", pascal(s.method)),
        _ => format!("await {r}.{}({args});", s.method),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn button() -> Locator {
        Locator {
            role: "button".into(),
            name: "Add \"tea\"".into(),
            test_id: None,
        }
    }

    fn all(code: &Code) -> [String; 4] {
        [
            Codegen::Typescript,
            Codegen::Python,
            Codegen::Java,
            Codegen::Csharp,
        ]
        .map(|l| code.render(l))
    }

    #[test]
    fn a_click_in_each_language() {
        let click = Code::from(Step::new(Recv::Locator(button()), "click", vec![]).opts(
            "Locator.ClickOptions",
            vec![("button", Arg::Enum("MouseButton", "right".into()))],
        ));
        assert_eq!(
            all(&click),
            [
                r#"await page.getByRole('button', { name: "Add \"tea\"" }).click({ button: 'right' });"#,
                r#"page.get_by_role("button", name="Add \"tea\"").click(button="right")"#,
                r#"page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Add \"tea\"")).click(new Locator.ClickOptions().setButton(MouseButton.RIGHT));"#,
                r#"await page.GetByRole(AriaRole.Button, new() { Name = "Add \"tea\"" }).ClickAsync(new() { Button = MouseButton.Right });"#,
            ]
        );
    }

    #[test]
    fn secrets_test_ids_and_lists() {
        let field = Locator {
            role: "textbox".into(),
            name: "Password".into(),
            test_id: Some("pw".into()),
        };
        let fill = Code(vec![
            Step::new(Recv::Locator(field), "fill", vec![Arg::Secret("PW".into())]),
            Step::new(Recv::Keyboard, "press", vec![Arg::Str("Enter".into())]),
        ]);
        assert_eq!(
            all(&fill),
            [
                "await page.getByTestId(\"pw\").fill(process.env['PW']);\nawait page.keyboard.press(\"Enter\");",
                "page.get_by_test_id(\"pw\").fill(os.environ[\"PW\"])\npage.keyboard.press(\"Enter\")",
                "page.getByTestId(\"pw\").fill(System.getenv(\"PW\"));\npage.keyboard().press(\"Enter\");",
                "await page.GetByTestId(\"pw\").FillAsync(Environment.GetEnvironmentVariable(\"PW\"));\nawait page.Keyboard.PressAsync(\"Enter\");",
            ]
        );
        let files = Code::from(Step::new(
            Recv::FileChooser,
            "setFiles",
            vec![Arg::Paths(vec!["/a.txt".into(), "/b.txt".into()])],
        ));
        assert_eq!(
            all(&files),
            [
                r#"await fileChooser.setFiles(["/a.txt","/b.txt"]);"#,
                r#"file_chooser.set_files(["/a.txt", "/b.txt"])"#,
                r#"fileChooser.setFiles(new Path[] {Paths.get("/a.txt"), Paths.get("/b.txt")});"#,
                r#"await fileChooser.SetFilesAsync(new[] { "/a.txt", "/b.txt" });"#,
            ]
        );
        let size = Code::from(Step::new(
            Recv::Page,
            "setViewportSize",
            vec![Arg::Size(800, 600)],
        ));
        assert_eq!(
            all(&size)[1..],
            [
                "page.set_viewport_size({\"width\": 800, \"height\": 600})",
                "page.setViewportSize(800, 600);",
                "await page.SetViewportSizeAsync(800, 600);",
            ]
        );
    }
}
