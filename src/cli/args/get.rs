//! The options that choose what is written for each URL (`-g/--get`,
//! `--json`), the Public Suffix List of the components (`--psl`), and
//! `inspect`'s canonicalization options.

use std::path::PathBuf;

use clap::Args as ClapArgs;

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
