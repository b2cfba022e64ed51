//! What the benchmarks' tests share.

/// The keys of a flat JSON line (no nested objects, no `,"` in a value), in
/// their order: what a line's form is checked by.
pub fn keys(line: &str) -> Vec<String> {
    let inner = line
        .strip_prefix('{')
        .and_then(|l| l.strip_suffix('}'))
        .unwrap_or_else(|| panic!("not a JSON object: {line}"));
    inner
        .split(",\"")
        .map(|field| {
            let field = field.trim_start_matches('"');
            field.split("\":").next().unwrap_or(field).to_owned()
        })
        .collect()
}
