//! The edit options (`--set`, `--append`, `--set-param`, `--delete-param`)
//! and how they become the library's [`Edit`] list, in the order they
//! were given on the command line, across the four options.

use clap::{ArgAction, ArgMatches, Args as ClapArgs};
use normurl::normalize::Edit;

use super::Failure;

/// The edits of each URL, applied in the order given (across the four
/// options), after parsing and before the profile's rules.
#[derive(Debug, Default, ClapArgs)]
pub struct EditArgs {
    /// Set a component of each URL with the URL Standard's setter
    /// (`url.protocol = …`): COMPONENT is scheme/protocol, username,
    /// password, host (host and port), hostname, port, path/pathname,
    /// query/search or fragment/hash; an empty VALUE clears port, query
    /// and fragment. A value the standard refuses (an http URL to a
    /// non-special scheme, a port that is no number) leaves the URL as it
    /// was: --explain says edit-refused, --stats counts it. May be
    /// repeated; all edits apply in the order given, before the profile's
    /// rules.
    #[arg(long = "set", value_name = "COMPONENT=VALUE", action = ArgAction::Append)]
    pub set: Vec<String>,

    /// Append to a component: query=NAME=VALUE adds the parameter at the
    /// end of the query, encoded as URLSearchParams writes it (a space as
    /// +) and the other parameters kept byte for byte; path=SEGMENT adds a
    /// path segment (its / written %2F, the rest encoded as the pathname
    /// setter does). May be repeated.
    #[arg(long = "append", value_name = "COMPONENT=VALUE", action = ArgAction::Append)]
    pub append: Vec<String>,

    /// Set a query parameter as URLSearchParams.set does: the first NAME
    /// gets VALUE and later ones go, or NAME=VALUE is added at the end;
    /// the query is then written as URLSearchParams writes it (%20 as +).
    /// May be repeated.
    #[arg(long = "set-param", value_name = "NAME=VALUE", action = ArgAction::Append)]
    pub set_param: Vec<String>,

    /// Delete the query parameters whose decoded name matches: NAME,...
    /// where `*` matches any run of bytes (as --keep-params); the query is
    /// then written as URLSearchParams writes it; a URL without such a
    /// parameter is left untouched. May be repeated.
    #[arg(long = "delete-param", value_name = "LIST", action = ArgAction::Append)]
    pub delete_param: Vec<String>,

    /// Where each value of the four options was on the command line
    /// (clap's indices), to apply them in that order; empty when the
    /// arguments did not come from [`EditArgs::record_order`].
    #[arg(skip)]
    pub order: Vec<(usize, Kind, usize)>,
}

/// Which option an edit came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Set,
    Append,
    SetParam,
    DeleteParam,
}

/// The options' clap ids (their field names) and kinds.
const IDS: [(&str, Kind); 4] = [
    ("set", Kind::Set),
    ("append", Kind::Append),
    ("set_param", Kind::SetParam),
    ("delete_param", Kind::DeleteParam),
];

impl EditArgs {
    /// Records from `matches` where each edit value was given.
    pub fn record_order(&mut self, matches: &ArgMatches) {
        self.order.clear();
        for (id, kind) in IDS {
            let indices = matches.indices_of(id).into_iter().flatten();
            for (nth, index) in indices.enumerate() {
                self.order.push((index, kind, nth));
            }
        }
        self.order.sort_unstable_by_key(|&(index, ..)| index);
    }

    /// The edits, in command-line order; a bad one is a usage error.
    pub fn edits(&self) -> Result<Vec<Edit>, Failure> {
        let mut order = self.order.clone();
        let counts = [
            (Kind::Set, self.set.len()),
            (Kind::Append, self.append.len()),
            (Kind::SetParam, self.set_param.len()),
            (Kind::DeleteParam, self.delete_param.len()),
        ];
        if order.len() != counts.iter().map(|c| c.1).sum::<usize>() {
            // Without the indices: option by option.
            order = counts
                .iter()
                .flat_map(|&(kind, n)| (0..n).map(move |nth| (0, kind, nth)))
                .collect();
        }
        order
            .into_iter()
            .map(|(_, kind, nth)| {
                let edit = match kind {
                    Kind::Set => Edit::set(&self.set[nth]),
                    Kind::Append => Edit::append(&self.append[nth]),
                    Kind::SetParam => Edit::set_param(&self.set_param[nth]),
                    Kind::DeleteParam => Edit::delete_param(&self.delete_param[nth]),
                };
                edit.map_err(|e| Failure::Usage(e.to_string()))
            })
            .collect()
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{CommandFactory, FromArgMatches};

    #[test]
    fn edits_keep_the_command_line_order() {
        let argv = [
            "normurl",
            "--set-param",
            "a=1",
            "--set",
            "scheme=https",
            "--delete-param",
            "a",
            "--set",
            "port=8",
        ];
        let matches = super::super::args::Args::command()
            .try_get_matches_from(argv)
            .unwrap();
        let mut args = super::super::args::Args::from_arg_matches(&matches).unwrap();
        let edits = &mut args.normalize.edits;
        edits.record_order(&matches);
        let options: Vec<_> = edits
            .edits()
            .unwrap()
            .iter()
            .map(|e| match e {
                Edit::Set(s, v) => format!("set {} {v}", s.names()[0]),
                other => other.option().to_owned(),
            })
            .collect();
        assert_eq!(
            options,
            [
                "--set-param",
                "set protocol https",
                "--delete-param",
                "set port 8"
            ]
        );
    }
}
