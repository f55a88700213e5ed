//! The edit options (`args/edit.rs`) as the library's [`Edit`] list, in
//! the order they were given on the command line, across the four options.

use normurl::normalize::Edit;

use crate::cli::args::edit::{EditArgs, Kind};
use crate::cli::Failure;

/// The edits, in command-line order; a bad one is a usage error.
pub fn edits(a: &EditArgs) -> Result<Vec<Edit>, Failure> {
    let mut order = a.order.clone();
    let counts = [
        (Kind::Set, a.set.len()),
        (Kind::Append, a.append.len()),
        (Kind::SetParam, a.set_param.len()),
        (Kind::DeleteParam, a.delete_param.len()),
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
                Kind::Set => Edit::set(&a.set[nth]),
                Kind::Append => Edit::append(&a.append[nth]),
                Kind::SetParam => Edit::set_param(&a.set_param[nth]),
                Kind::DeleteParam => Edit::delete_param(&a.delete_param[nth]),
            };
            edit.map_err(|e| Failure::Usage(e.to_string()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::args::Args;
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
        let matches = Args::command().try_get_matches_from(argv).unwrap();
        let mut args = Args::from_arg_matches(&matches).unwrap();
        let edits = &mut args.normalize.edits;
        edits.record_order(&matches);
        let options: Vec<_> = super::edits(edits)
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
