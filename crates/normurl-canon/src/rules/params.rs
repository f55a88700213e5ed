//! `keep-params`, `domain-params` and `drop-blank-params`: parameter rules that remove
//! parameters by a test of their own, before the rules of `query/`
//! (which then see only what stays).

use super::domain_params::Action;
use crate::form;
use crate::rule::{Rule, RuleSet};
use crate::rules::tracking::TrackingParams;

/// The rules of this module.
pub(crate) const RULES: RuleSet =
    RuleSet::from_rules(&[Rule::KeepParams, Rule::DomainParams, Rule::DropBlankParams]);

/// The lists the rules of this module test names against: `keep-params`'s
/// and, for `domain-params`, the action of the URL's domain, if any.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lists<'a> {
    pub(crate) keep: &'a TrackingParams,
    pub(crate) domain: Option<&'a Action>,
}

/// What [`apply`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Outcome {
    pub(crate) fired: RuleSet,
    /// The new query was written to `out`.
    pub(crate) changed: bool,
    /// Every non-empty parameter was removed: the query goes, `?` and all
    /// (as `strip-tracking` does), so the output has no `?` of nothing
    /// for `drop-empty-query` to differ on.
    pub(crate) gone: bool,
}

/// Removes the parameters that `keep-params` (names not matched by
/// `lists.keep`, decoded as the form-urlencoded parser decodes them),
/// `domain-params` (names `lists.domain` removes) and `drop-blank-params`
/// (an empty value: `a=` or `a`) remove, writing the
/// rest into `out` when something goes. Empty pieces (`&&`) are left to
/// `drop-empty-params`. `decoded` and `name` are scratch buffers.
pub(crate) fn apply(
    query: &[u8],
    rules: RuleSet,
    lists: Lists<'_>,
    (decoded, name): (&mut Vec<u8>, &mut Vec<u8>),
    out: &mut Vec<u8>,
) -> Outcome {
    let mut outcome = Outcome::default();
    let mut kept_named = false;
    let mut kept_any = false;
    let start = out.len();
    for piece in form::pieces(query) {
        let removed_by = if piece.is_empty() {
            None
        } else if rules.contains(Rule::KeepParams)
            && !lists.keep.matches(decode(piece.name(query), decoded, name))
        {
            Some(Rule::KeepParams)
        } else if rules.contains(Rule::DomainParams)
            && lists
                .domain
                .is_some_and(|a| a.removes(decode(piece.name(query), decoded, name)))
        {
            Some(Rule::DomainParams)
        } else if rules.contains(Rule::DropBlankParams)
            && piece.value(query).unwrap_or(b"").is_empty()
        {
            Some(Rule::DropBlankParams)
        } else {
            None
        };
        match removed_by {
            Some(rule) => outcome.fired.insert(rule),
            None => {
                kept_named |= !piece.is_empty();
                if kept_any {
                    out.push(b'&');
                }
                kept_any = true;
                out.extend_from_slice(piece.bytes(query));
            }
        }
    }
    if outcome.fired.is_empty() {
        out.truncate(start);
        return outcome;
    }
    outcome.changed = true;
    outcome.gone = !kept_named;
    outcome
}

/// The name `raw` as the form-urlencoded parser decodes it (`+` a space,
/// `%XX` a byte, then UTF-8 with U+FFFD for bad bytes).
fn decode<'a>(raw: &'a [u8], decoded: &mut Vec<u8>, name: &'a mut Vec<u8>) -> &'a [u8] {
    if !raw.iter().any(|&b| b == b'%' || b == b'+') {
        return raw;
    }
    decoded.clear();
    form::decode_component(raw, decoded);
    name.clear();
    form::push_utf8_lossy(decoded, name);
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(query: &str, rules: &[Rule], keep: &str) -> (String, Outcome) {
        let mut list = TrackingParams::empty();
        list.add_list(keep).unwrap();
        let (mut a, mut b, mut out) = (Vec::new(), Vec::new(), Vec::new());
        let outcome = apply(
            query.as_bytes(),
            RuleSet::from_rules(rules),
            Lists {
                keep: &list,
                domain: None,
            },
            (&mut a, &mut b),
            &mut out,
        );
        let text = if outcome.changed {
            String::from_utf8(out).unwrap()
        } else {
            assert!(out.is_empty());
            query.to_owned()
        };
        (text, outcome)
    }

    #[test]
    fn keep_params_keeps_listed_names_and_globs() {
        let keep = [Rule::KeepParams];
        assert_eq!(
            run("id=1&utm_x=2&page=3", &keep, "id,page").0,
            "id=1&page=3"
        );
        assert_eq!(run("a_1=1&b=2&a_2", &keep, "a_*").0, "a_1=1&a_2");
        assert_eq!(run("x_id=1&y=2", &keep, "*_id").0, "x_id=1");
        // Names are compared decoded.
        assert_eq!(run("%69d=1&i+d=2", &keep, "id").0, "%69d=1");
        let (text, outcome) = run("id=1&page=3", &keep, "id,page");
        assert_eq!((text.as_str(), outcome.changed), ("id=1&page=3", false));
        let (_, outcome) = run("a=1&&b=2", &keep, "c");
        assert!(outcome.gone && outcome.fired == RuleSet::from_rules(&keep));
    }

    #[test]
    fn empty_pieces_stay_for_drop_empty_params() {
        let keep = [Rule::KeepParams];
        let (text, outcome) = run("&a=1&&b=2&", &keep, "b");
        assert_eq!(text, "&&b=2&");
        assert!(!outcome.gone);
        assert!(!run("&&", &keep, "b").1.changed);
    }

    #[test]
    fn domain_params_removes_what_the_domain_action_removes() {
        use super::super::domain_params::DomainParams;
        let mut rules = DomainParams::default();
        rules.add_text("* strip ref\nk.com keep id").unwrap();
        let run_on = |host: &[u8], query: &str| {
            let (mut a, mut b, mut out) = (Vec::new(), Vec::new(), Vec::new());
            let lists = Lists {
                keep: &TrackingParams::empty(),
                domain: rules.lookup(host),
            };
            let rule_set = RuleSet::from_rules(&[Rule::DomainParams, Rule::DropBlankParams]);
            let outcome = apply(
                query.as_bytes(),
                rule_set,
                lists,
                (&mut a, &mut b),
                &mut out,
            );
            (String::from_utf8(out).unwrap(), outcome)
        };
        // Names are compared decoded; drop-blank-params still runs.
        let (text, outcome) = run_on(b"a.com", "r%65f=1&x=2&b=");
        assert_eq!(text, "x=2");
        assert_eq!(
            outcome.fired,
            RuleSet::from_rules(&[Rule::DomainParams, Rule::DropBlankParams])
        );
        assert_eq!(run_on(b"k.com", "ref=1&id=2&x=3").0, "id=2");
        assert!(run_on(b"k.com", "ref=1").1.gone);
    }

    #[test]
    fn drop_blank_params_drops_empty_values() {
        let blank = [Rule::DropBlankParams];
        assert_eq!(run("a=&b=1", &blank, "").0, "b=1");
        assert_eq!(run("a&b=1&c=", &blank, "").0, "b=1");
        assert_eq!(run("a=%20&b==", &blank, "").0, "a=%20&b==");
        let (_, outcome) = run("a=&b", &blank, "");
        assert!(outcome.gone && outcome.fired == RuleSet::from_rules(&blank));
    }

    proptest::proptest! {
        #[test]
        fn idempotent(query in "[ab=&%+]{0,12}", blank: bool, keep: bool) {
            let mut rules = vec![];
            if blank { rules.push(Rule::DropBlankParams) }
            if keep { rules.push(Rule::KeepParams) }
            let (once, outcome) = run(&query, &rules, "a");
            let (twice, again) = run(&once, &rules, "a");
            if !outcome.gone {
                proptest::prop_assert_eq!(&twice, &once);
                proptest::prop_assert!(!again.changed);
            }
        }
    }
}
