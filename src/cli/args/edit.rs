//! The edit options (`--set`, `--append`, `--set-param`, `--delete-param`)
//! and where each value was on the command line, so that
//! `config/edit.rs` makes the library's edit list in that order, across
//! the four options.

use clap::{ArgAction, ArgMatches, Args as ClapArgs};

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
}
