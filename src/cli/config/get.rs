//! What is written for each URL (`-g/--get`, `--json`, `--add-field`),
//! the Public Suffix List of the components (`--psl`), and the scheme of
//! inputs without one (`--default-scheme`), as the normalizer's options.

use std::sync::Arc;

use normurl::canon::{OutputForm, SurtOptions};
use normurl::component::{Component, PublicSuffixList};
use normurl::normalize::{AddField, DefaultScheme, Get, Options, Source};

use crate::cli::args::get::GetArgs;
use crate::cli::Failure;

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
}
