//! The board crates' facts, written once: the schema of the
//! `[package.metadata.nimbot]` table of `firmware/boards/NAME/Cargo.toml` (what each
//! key is, its type and its default; docs/firmware.md, "A board's facts", says
//! what each means), read through `cargo metadata --no-deps` and checked.
//! `tools/firmware.sh` reads a board with the `nimbot-board-facts` binary (shell
//! assignments, [`Facts::shell`]); the tidy test checks the docs' board tables
//! against [`Facts`].
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::path::Path;
use std::process::Command;

use serde_json::{Map, Value};

/// The keys of `[package.metadata.nimbot]`, in the order docs/firmware.md lists
/// them. Any other key is an error.
pub const KEYS: [&str; 18] = [
    "target",
    "flash-budget",
    "ram-budget",
    "emulator",
    "emulator-package",
    "image-flag",
    "images",
    "uf2",
    "exe-suffix",
    "guard-bin",
    "cost-bin",
    "test-args",
    "leaves-out",
    "big-table",
    "bridged",
    "bridge-args",
    "toolchain",
    "fallback",
];

/// The QEMU test's options when a board names none.
pub const DEFAULT_TEST_ARGS: [&str; 4] = ["--samples", "4", "--other-samples", "1"];

/// One image of a board: the binary, and the emulator's serial port it talks on
/// (none: the emulator's default).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    /// The `[[bin]]` name.
    pub bin: String,
    /// The emulator's serial port for it, if not the default.
    pub port: Option<String>,
}

/// How the board's target is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Toolchain {
    /// rustup's target, else the fallback toolchain.
    Cross,
    /// The board's pinned nightly with `rust-src`, gcc-avr and avr-libc.
    Avr,
}

/// A board's facts, defaults filled in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Facts {
    /// The package's name.
    pub name: String,
    /// The target triple.
    pub target: String,
    /// Bytes of flash the image may use.
    pub flash_budget: u64,
    /// Bytes of RAM (static plus stack) the image may use.
    pub ram_budget: u64,
    /// The emulator's command line without the image (empty: built, not run).
    pub emulator: String,
    /// The Debian package that provides the emulator, or `rp2040py`.
    pub emulator_package: String,
    /// The emulator's option that loads the image.
    pub image_flag: String,
    /// The images: each emulated, the first also bridged.
    pub images: Vec<Image>,
    /// The emulator boots each image's `.uf2` file.
    pub uf2: bool,
    /// The ELF's suffix.
    pub exe_suffix: String,
    /// The binary built under the link-time panic guard.
    pub guard_bin: String,
    /// The cost image for the bench (empty: none).
    pub cost_bin: String,
    /// `firmware/qemu_test.py`'s options.
    pub test_args: Vec<String>,
    /// The board leaves out the related games (`leaves-out = ["related-games"]`).
    pub leaves_out_related_games: bool,
    /// The test also plays the big table's games.
    pub big_table: bool,
    /// Bridged games by default.
    pub bridged: bool,
    /// `firmware/bridge_test.py`'s options.
    pub bridge_args: Vec<String>,
    /// How the target is built.
    pub toolchain: Toolchain,
    /// Whether the fallback toolchain builds the board.
    pub fallback: bool,
}

impl Facts {
    /// The facts of the board crate in `dir` (its `Cargo.toml`), through
    /// `cargo metadata --no-deps` (no build, no network).
    ///
    /// # Errors
    /// One line naming the manifest: cargo's failure, a missing table, an unknown
    /// key or a value of the wrong type.
    pub fn read(dir: &Path) -> Result<Facts, String> {
        let manifest = dir.join("Cargo.toml");
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let out = Command::new(cargo)
            .args([
                "metadata",
                "--no-deps",
                "--format-version",
                "1",
                "--manifest-path",
            ])
            .arg(&manifest)
            .output()
            .map_err(|e| format!("{}: cannot run cargo metadata: {e}", manifest.display()))?;
        if !out.status.success() {
            return Err(format!(
                "{}: cargo metadata failed: {}",
                manifest.display(),
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        let meta: Value = serde_json::from_slice(&out.stdout)
            .map_err(|e| format!("{}: cargo metadata's JSON: {e}", manifest.display()))?;
        let package = &meta["packages"][0];
        let name = package["name"].as_str().unwrap_or_default();
        Facts::from_table(name, &package["metadata"]["nimbot"])
            .map_err(|e| format!("{} [package.metadata.nimbot]: {e}", manifest.display()))
    }

    /// The facts of the package `name` from its `[package.metadata.nimbot]` table
    /// (as JSON; `Null` when the manifest has none).
    ///
    /// # Errors
    /// What is wrong with the table, in one line.
    pub fn from_table(name: &str, table: &Value) -> Result<Facts, String> {
        let Some(table) = table.as_object() else {
            return Err("missing".into());
        };
        if let Some(key) = table.keys().find(|k| !KEYS.contains(&k.as_str())) {
            return Err(format!("unknown key {key:?} (keys: {})", KEYS.join(", ")));
        }
        let t = Table(table);
        let emulator = t.text("emulator", "")?;
        let emulator_package = t.text("emulator-package", "")?;
        if !emulator.is_empty() && emulator_package.is_empty() {
            return Err("emulator-package is missing (the Debian package, or rp2040py, that provides the emulator)".into());
        }
        let toolchain = match t.text("toolchain", "cross")?.as_str() {
            "cross" => Toolchain::Cross,
            "avr" => Toolchain::Avr,
            _ => return Err("toolchain must be cross or avr".into()),
        };
        let leaves_out = t.words("leaves-out", &[])?;
        if leaves_out.iter().any(|w| w != "related-games") {
            return Err("leaves-out may name related-games only".into());
        }
        Ok(Facts {
            name: name.to_string(),
            target: t.required_text("target")?,
            flash_budget: t.required_number("flash-budget")?,
            ram_budget: t.required_number("ram-budget")?,
            emulator,
            emulator_package,
            image_flag: t.text("image-flag", "-kernel")?,
            images: t.images(name)?,
            uf2: t.flag("uf2", false)?,
            exe_suffix: t.text("exe-suffix", "")?,
            guard_bin: t.text("guard-bin", name)?,
            cost_bin: t.text("cost-bin", "")?,
            test_args: t.words("test-args", &DEFAULT_TEST_ARGS)?,
            leaves_out_related_games: !leaves_out.is_empty(),
            big_table: t.flag("big-table", false)?,
            bridged: t.flag("bridged", true)?,
            bridge_args: t.words("bridge-args", &[])?,
            toolchain,
            fallback: t.flag("fallback", true)?,
        })
    }

    /// The facts as the shell assignments `tools/firmware.sh` evaluates (its
    /// `board` function says what each variable is for).
    pub fn shell(&self) -> String {
        let flag = |b: bool| if b { "1" } else { "''" };
        let images: Vec<String> = self
            .images
            .iter()
            .map(|i| format!("{} {}", i.bin, i.port.as_deref().unwrap_or("")))
            .collect();
        let mut test_args = self.test_args.clone();
        if self.leaves_out_related_games {
            test_args.push("--expanding-only".into());
        }
        let toolchain = match self.toolchain {
            Toolchain::Cross => "cross",
            Toolchain::Avr => "avr",
        };
        format!(
            "TARGET={} FLASH_BUDGET={} RAM_BUDGET={}\n\
             QEMU={} QEMU_PACKAGE={} QEMU_IMAGE={}\n\
             IMAGES=({}) UF2={} EXE_SUFFIX={}\n\
             GUARD_BIN={} COST_BIN={} TOOLCHAIN_NEED={} FALLBACK_BUILDS={}\n\
             TEST_ARGS=({}) BIG_TABLE_ARGS=({})\n\
             BRIDGED_BY_DEFAULT={} BRIDGE_ARGS=({})\n",
            quote(&self.target),
            self.flash_budget,
            self.ram_budget,
            quote(&self.emulator),
            quote(&self.emulator_package),
            quote(&self.image_flag),
            words(&images),
            flag(self.uf2),
            quote(&self.exe_suffix),
            quote(&self.guard_bin),
            quote(&self.cost_bin),
            toolchain,
            flag(self.fallback),
            words(&test_args),
            if self.big_table { "1" } else { "" },
            flag(self.bridged),
            words(&self.bridge_args),
        )
    }
}

/// `word` as one shell word: as it is when it holds only safe characters, else in
/// single quotes (`''` for the empty word).
pub fn quote(word: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "@%+=:,./-_".contains(c);
    if !word.is_empty() && word.chars().all(safe) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\"'\"'"))
    }
}

fn words(list: &[String]) -> String {
    list.iter().map(|w| quote(w)).collect::<Vec<_>>().join(" ")
}

/// The table, read key by key with a type each.
struct Table<'a>(&'a Map<String, Value>);

impl Table<'_> {
    fn wrong(key: &str, kind: &str) -> String {
        format!("{key} must be {kind}")
    }

    fn text(&self, key: &str, default: &str) -> Result<String, String> {
        match self.0.get(key) {
            None => Ok(default.to_string()),
            Some(v) => v
                .as_str()
                .map(str::to_string)
                .ok_or_else(|| Self::wrong(key, "a string")),
        }
    }

    fn required_text(&self, key: &str) -> Result<String, String> {
        if !self.0.contains_key(key) {
            return Err(format!("{key} is missing"));
        }
        self.text(key, "")
    }

    fn required_number(&self, key: &str) -> Result<u64, String> {
        match self.0.get(key) {
            None => Err(format!("{key} is missing")),
            Some(v) => v.as_u64().ok_or_else(|| Self::wrong(key, "an integer")),
        }
    }

    fn flag(&self, key: &str, default: bool) -> Result<bool, String> {
        match self.0.get(key) {
            None => Ok(default),
            Some(v) => v.as_bool().ok_or_else(|| Self::wrong(key, "true or false")),
        }
    }

    fn words(&self, key: &str, default: &[&str]) -> Result<Vec<String>, String> {
        match self.0.get(key) {
            None => Ok(default.iter().map(|s| s.to_string()).collect()),
            Some(Value::Array(items)) => items
                .iter()
                .map(|i| i.as_str().map(str::to_string))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| format!("{key} holds strings")),
            Some(_) => Err(Self::wrong(key, "an array")),
        }
    }

    fn images(&self, name: &str) -> Result<Vec<Image>, String> {
        let Some(value) = self.0.get("images") else {
            return Ok(vec![Image {
                bin: name.to_string(),
                port: None,
            }]);
        };
        let bad = || "images must be tables of bin (and port)".to_string();
        let items = value.as_array().filter(|a| !a.is_empty()).ok_or_else(bad)?;
        items
            .iter()
            .map(|item| {
                let item = item.as_object().ok_or_else(bad)?;
                if item.keys().any(|k| k != "bin" && k != "port") {
                    return Err(bad());
                }
                let bin = item.get("bin").and_then(Value::as_str).ok_or_else(bad)?;
                let port = match item.get("port") {
                    None => None,
                    Some(p) => Some(p.as_str().ok_or_else(bad)?.to_string()),
                };
                Ok(Image {
                    bin: bin.to_string(),
                    port,
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn defaults_fill_in_and_the_shell_lines_quote() {
        let f = Facts::from_table(
            "nimbot-x",
            &json!({"target": "thumbv7m-none-eabi", "flash-budget": 65536, "ram-budget": 8192,
                    "emulator": "qemu-system-arm -M lm3s6965evb", "emulator-package": "qemu-system-arm",
                    "leaves-out": ["related-games"], "bridge-args": ["--x", "a b"]}),
        )
        .unwrap();
        assert_eq!(f.guard_bin, "nimbot-x");
        assert_eq!(
            f.images,
            [Image {
                bin: "nimbot-x".into(),
                port: None
            }]
        );
        assert!(f.bridged && f.fallback && !f.uf2);
        let shell = f.shell();
        assert!(
            shell.contains("QEMU='qemu-system-arm -M lm3s6965evb' "),
            "{shell}"
        );
        assert!(
            shell.contains("IMAGES=('nimbot-x ') UF2='' EXE_SUFFIX=''"),
            "{shell}"
        );
        assert!(
            shell.contains(
                "TEST_ARGS=(--samples 4 --other-samples 1 --expanding-only) BIG_TABLE_ARGS=()"
            ),
            "{shell}"
        );
        assert!(shell.contains("BRIDGE_ARGS=(--x 'a b')"), "{shell}");
        assert_eq!(quote("it's"), "'it'\"'\"'s'");
    }

    #[test]
    fn a_table_that_breaks_the_schema_is_refused_with_its_reason() {
        let base = json!({"target": "t", "flash-budget": 1, "ram-budget": 1});
        let with = |key: &str, v: Value| {
            let mut t = base.clone();
            t[key] = v;
            Facts::from_table("b", &t).unwrap_err()
        };
        assert_eq!(Facts::from_table("b", &Value::Null).unwrap_err(), "missing");
        assert!(with("colour", json!("red")).starts_with("unknown key \"colour\""));
        assert_eq!(
            with("flash-budget", json!(true)),
            "flash-budget must be an integer"
        );
        assert_eq!(with("uf2", json!(1)), "uf2 must be true or false");
        assert_eq!(
            with("toolchain", json!("gcc")),
            "toolchain must be cross or avr"
        );
        assert_eq!(
            with("leaves-out", json!(["fibonacci"])),
            "leaves-out may name related-games only"
        );
        assert_eq!(
            with("images", json!([{"bin": "x", "speed": 9}])),
            "images must be tables of bin (and port)"
        );
        assert_eq!(with("emulator", json!("qemu")), "emulator-package is missing (the Debian package, or rp2040py, that provides the emulator)");
        let mut t = base.clone();
        t.as_object_mut().unwrap().remove("target");
        assert_eq!(Facts::from_table("b", &t).unwrap_err(), "target is missing");
    }
}
