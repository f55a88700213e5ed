//! `normurl rules`: the profiles, and each rule with the profiles that use
//! it; `normurl rules PROFILE`: the rules of one profile.

use normurl::canon::{Profile, Rule};
use normurl::component::{Component, PublicSuffixList, BUNDLED_DATE};

/// The text `normurl rules [PROFILE]` prints.
pub fn list(profile: Option<Profile>) -> String {
    match profile {
        Some(p) => of_profile(p),
        None => all() + &rules_help() + &components_help(),
    }
}

fn all() -> String {
    let mut text = String::from("Profiles (--profile):\n");
    for p in Profile::ALL {
        text.push_str(&format!("  {:<20} {}\n", p.name(), p.description()));
    }
    text.push_str("\nRules (--rules +name,-name), with the profiles that use them:\n");
    for r in Rule::ALL {
        let users: Vec<&str> = Profile::ALL
            .iter()
            .filter(|p| p.rules().contains(r))
            .map(|p| p.name())
            .collect();
        let users = if users.is_empty() {
            "(none: add it with --rules)".to_string()
        } else {
            users.join(", ")
        };
        text.push_str(&format!(
            "  {:<26} {}\n  {:<26} in: {}\n",
            r.name(),
            r.description(),
            "",
            users
        ));
    }
    text.push_str(&format!(
        "\nAfter the rules, before components:\n  {:<26} {}\n",
        "rewrite",
        "--rewrite FILE: regex substitutions on the canonical URL (s|REGEX|REPLACEMENT| or REGEX<TAB>REPLACEMENT lines; test INPUT EXPECTED lines checked at load); --explain names it rewrite"
    ));
    text
}

fn of_profile(p: Profile) -> String {
    let mut text = format!("{}: {}\n", p.name(), p.description());
    let rules = p.rules();
    if rules.is_empty() {
        text.push_str("  (no rules: the WHATWG serialization only)\n");
    }
    for r in rules.iter() {
        text.push_str(&format!("  {:<26} {}\n", r.name(), r.description()));
    }
    text
}

/// The lines `normurl rules` prints for the edits.
pub fn rules_help() -> String {
    let mut text = String::from(
        "\nEdits, in the order given, after parsing and before the rules (--explain: edit, edit-refused):\n",
    );
    for (name, what) in [
        (
            "--set C=V",
            "the URL API's setter of C (scheme/protocol, username, password, host, hostname, port, path/pathname, query/search, fragment/hash); empty V clears port, query, fragment",
        ),
        (
            "--append query=N=V",
            "add the parameter N=V at the end of the query, encoded as URLSearchParams writes it",
        ),
        (
            "--append path=S",
            "add the path segment S (its / as %2F)",
        ),
        (
            "--set-param N=V",
            "URLSearchParams.set(N, V): replace the first N and drop the others, or add it",
        ),
        (
            "--delete-param LIST",
            "delete the parameters whose decoded name matches (`*` globs, as --keep-params)",
        ),
    ] {
        text.push_str(&format!("  {name:<26} {what}\n"));
    }
    text
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_profile_lists_exactly_its_rules() {
        let text = list(Some(Profile::Aggressive));
        for r in Rule::ALL {
            let listed = text
                .lines()
                .any(|l| l.split_whitespace().next() == Some(r.name()));
            assert_eq!(
                listed,
                Profile::Aggressive.rules().contains(r),
                "{}",
                r.name()
            );
        }
        assert!(list(Some(Profile::Whatwg)).contains("no rules"));
    }

    #[test]
    fn every_rule_names_its_profiles() {
        let text = list(None);
        let wayback_rules = Profile::Wayback.rules();
        for r in Rule::ALL {
            let at = text.find(&format!("  {:<26} ", r.name())).unwrap();
            let users = text[at..].lines().nth(1).unwrap();
            assert_eq!(
                users.contains("wayback"),
                wayback_rules.contains(r),
                "{users}"
            );
        }
    }
}
