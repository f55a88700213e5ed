//! The options that choose what is written for each URL (`-g/--get`,
//! `--json`, `--add-field`), the Public Suffix List of the components
//! (`--psl`), and the scheme of inputs without one (`--default-scheme`).

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args as ClapArgs;
use normurl::canon::{OutputForm, Profile, SurtOptions};
use normurl::component::{Component, PublicSuffixList, BUNDLED_DATE};
use normurl::normalize::{AddField, DefaultScheme, Get, Options, Source};

use super::inspect::Canon;
use super::Failure;

#[derive(Debug, ClapArgs)]
pub struct GetArgs {
    /// What to write for each URL: url (the canonical URL), surt (the SURT
    /// key of CDX files, `com,example)/path`), ssurt (urlcanon's SSURT), a
    /// component (host, registered_domain, url_host_tld, ...: `normurl
    /// rules` lists them), or a template of components such as
    /// '{registered_domain}\t{url}' (\t is a tab); {query:NAME} is the
    /// first value of parameter NAME and {query-all:NAME} all of them,
    /// comma-joined (decoded: + is a space, %XX a byte), {pathname:decoded}
    /// the path percent-decoded (also href, username, password, search,
    /// hash). Components are those of the URL after the profile's rules.
    #[arg(short = 'g', long, value_name = "WHAT", default_value = "url")]
    pub get: String,

    /// Write one JSON object per line with every component, "params" (the
    /// query's [name, value] pairs, decoded as URLSearchParams), and last
    /// "line": the input line number where the record starts (from 1 in
    /// each input file, as grep -n counts; --dedup ignores it). An invalid
    /// line gives {"invalid":REASON,"input":LINE,"line":N}, a blank line
    /// {"line":N}, a --header line {"header":LINE,"line":1}: every output
    /// line is JSON. With `normurl warc`, "line" is the record's number in
    /// its file, and the object has the record's "warc_type", "offset" and
    /// "length".
    #[arg(long, conflicts_with = "get")]
    pub json: bool,

    /// Read the Public Suffix List from FILE (the format of
    /// publicsuffix.org's public_suffix_list.dat) instead of the bundled
    /// copy (`normurl rules` says its date): for the components of --get,
    /// and for the strip-www rule, which keeps www. when what is left
    /// would be a public suffix (www.co.uk).
    #[arg(long, value_name = "FILE")]
    pub psl: Option<PathBuf>,
}

/// `normurl inspect`'s canonicalization options.
#[derive(Debug, ClapArgs)]
pub struct InspectCanonArgs {
    /// Show the URL after each rule of this profile that changes it (see
    /// `normurl rules`), and the canonical URL.
    #[arg(short = 'p', long, value_name = "NAME")]
    pub profile: Option<String>,
    /// Add or remove rules on top of the profile (whatwg without one).
    #[arg(long, value_name = "EDITS", allow_hyphen_values = true)]
    pub rules: Option<String>,
    /// Show this component or template of the canonical URL as `get`.
    #[arg(short = 'g', long, value_name = "WHAT")]
    pub get: Option<String>,
    /// More query parameters for the strip-tracking rule: NAME,... or @FILE
    /// (one name per line); may be repeated. Names are case-sensitive.
    #[arg(long, value_name = "LIST", action = clap::ArgAction::Append)]
    pub strip_params: Vec<String>,
    /// Parse a URL without a scheme (example.com/a, //example.com/a) as if
    /// it began with SCHEME:// (http or https).
    #[arg(long, value_name = "SCHEME", conflicts_with = "base")]
    pub default_scheme: Option<String>,
    /// The rule options, as the normalize command takes them; `--rewrite`
    /// shows as a step `rewrite` after the rules.
    #[command(flatten)]
    pub rule_options: super::rule_options::RuleOptionArgs,
}

/// What `inspect` shows of its canonicalization options: the steps when
/// a profile, a rule edit, a list or a file is given.
pub fn inspect_canon(a: &InspectCanonArgs) -> Result<Canon, Failure> {
    let usage = Failure::Usage;
    let profile: Profile = match &a.profile {
        Some(p) => p.parse().map_err(|e| usage(format!("--profile: {e}")))?,
        None => Profile::Whatwg,
    };
    let rules: Vec<String> = a.rules.iter().cloned().collect();
    let mut options = super::rule_options::options(&a.rule_options, &rules, &a.strip_params);
    let steps = a.profile.is_some() || options.edits_rules() || options.rewrite.is_some();
    let builder = super::rule_options::builder(&mut options, profile)?;
    let get = match &a.get {
        Some(t) => Some(t.parse().map_err(|e| usage(format!("--get: {e}")))?),
        None => None,
    };
    let default_scheme = match &a.default_scheme {
        Some(s) => Some(
            s.parse::<DefaultScheme>()
                .map_err(|e| usage(format!("--default-scheme: {e}")))?,
        ),
        None => None,
    };
    let rewrites = super::rule_options::rewrites(&mut options, &builder.build())?;
    Ok(Canon {
        builder: steps.then_some(builder),
        rewrites,
        get,
        default_scheme,
    })
}

/// `--version`: the crate's version and the bundled list's date (a test
/// checks that it is [`BUNDLED_DATE`]).
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (Public Suffix List of 2026-11-21)"
);

/// The part of `normurl rules` about `--get`: the components, and the
/// date of the bundled Public Suffix List.
pub fn components_help() -> String {
    let mut text =
        String::from("\nComponents (--get NAME, or {NAME} in a template; url is href):\n");
    let names: Vec<&str> = Component::ALL.iter().map(|c| c.name()).collect();
    for row in names.chunks(3) {
        let cells: Vec<String> = row.iter().map(|n| format!("{n:<28}")).collect();
        text.push_str(&format!("  {}\n", cells.join("").trim_end()));
    }
    text.push_str(
        "\nIn templates also: {query:NAME} (the first value of parameter NAME, decoded as URLSearchParams: + a space, %XX a byte; empty if none), {query-all:NAME} (every value, comma-joined), {pathname:decoded} (percent-decoded; also href, username, password, search, hash, url_path).\n",
    );
    text.push_str(&format!(
        "\nPublic Suffix List: the bundled copy of {BUNDLED_DATE} ({} rules); --psl FILE reads another.\n",
        PublicSuffixList::bundled().len()
    ));
    text
}

/// The canonicalizer's output form of `--get`: the SURT forms are the
/// canonicalizer's; every other value writes components of its URL form.
pub fn output_form(a: &GetArgs) -> OutputForm {
    match a.get.as_str() {
        "surt" => OutputForm::Surt(SurtOptions::CDX),
        "ssurt" => OutputForm::Ssurt,
        _ => OutputForm::Url,
    }
}

/// The normalizer's options of these arguments, `--add-field`,
/// `--default-scheme` (the main command's) and `idn` (`--idn`), the others
/// left at their defaults.
pub fn options(
    a: &GetArgs,
    add_field: Option<&str>,
    default_scheme: Option<&str>,
    idn: normurl::canon::IdnForm,
) -> Result<Options, Failure> {
    let mut options = Options::default();
    let usage = |e: String| Failure::Usage(e);
    options.get = if a.json {
        Some(Get::Json)
    } else {
        match a.get.as_str() {
            "url" | "surt" | "ssurt" => None,
            t => Some(Get::Template(
                t.parse().map_err(|e| usage(format!("--get: {e}")))?,
            )),
        }
    };
    if options.get.is_some() && idn != normurl::canon::IdnForm::Ascii {
        return Err(usage(
            "--idn unicode works only with --get url, surt or ssurt".into(),
        ));
    }
    if let Some(place) = add_field {
        options.add_field = Some(
            place
                .parse::<AddField>()
                .map_err(|e| usage(format!("--add-field: {e}")))?,
        );
        options.add_field_name = column_name(&a.get, options.get.as_ref());
    }
    if let Some(scheme) = default_scheme {
        options.default_scheme = Some(
            scheme
                .parse::<DefaultScheme>()
                .map_err(|e| usage(format!("--default-scheme: {e}")))?,
        );
    }
    if let Some(path) = &a.psl {
        options.psl = Some(Arc::new(read_psl(path)?));
    }
    Ok(options)
}

/// The name of `--add-field`'s column in a header line: what `--get`
/// names, its template with each component's name (`host`,
/// `registered_domain\turl`), but `normalized_url` for the URL, so that
/// it is not taken for the `url` column a header often has already.
fn column_name(get: &str, template: Option<&Get>) -> String {
    let name = |c: Component| match c {
        Component::Href => "normalized_url",
        c => c.name(),
    };
    match template {
        Some(Get::Template(t)) => {
            let mut out = Vec::new();
            t.render_names(name, &mut out);
            String::from_utf8_lossy(&out).into_owned()
        }
        _ if get == "url" => "normalized_url".to_string(),
        _ => get.to_string(),
    }
}

fn read_psl(path: &std::path::Path) -> Result<PublicSuffixList, Failure> {
    Source::File(path.into())
        .public_suffix_list()
        .map_err(super::rule_options::failure)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_field_columns_are_named_after_get() {
        for (get, name) in [
            ("url", "normalized_url"),
            ("surt", "surt"),
            ("ssurt", "ssurt"),
            ("registered_domain", "registered_domain"),
            ("href", "normalized_url"),
            (r"{host}\t{url}", "host\tnormalized_url"),
        ] {
            let template = match get {
                "url" | "surt" | "ssurt" => None,
                t => Some(Get::Template(t.parse().unwrap())),
            };
            assert_eq!(column_name(get, template.as_ref()), name, "{get}");
        }
    }

    #[test]
    fn version_names_the_bundled_list() {
        assert!(VERSION.contains(BUNDLED_DATE), "{VERSION}");
    }
}
