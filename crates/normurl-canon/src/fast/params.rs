//! The query on the fast paths (`params`, beside `rules::query`): the parameter rules (through
//! `rules::query`'s plain and single-parameter versions) and what becomes
//! of the query.

use super::*;
/// The query parameter rules and `drop-empty-query`.
pub(super) struct QueryRules<'a> {
    pub(super) setup: &'a Setup,
    /// The final host, for exemptions from `strip-tracking`.
    pub(super) host: &'a [u8],
    pub(super) query: &'a [u8],
    /// The query has no `&`.
    pub(super) single: bool,
    pub(super) params: &'a mut QueryScratch,
    pub(super) tmp: &'a mut Vec<u8>,
}

impl QueryRules<'_> {
    /// Runs the parameter rules and `drop-empty-query`; a rewritten query
    /// is left in `tmp` (see [`Edit::new_query`]). `None` declines (see
    /// [`params_outcome`]).
    #[inline(never)]
    pub(super) fn apply(self, edit: &mut Edit) -> Option<()> {
        let rules = self.setup.plan.rules;
        self.tmp.clear();
        let outcome = params_outcome(
            self.setup,
            self.host,
            self.query,
            self.single,
            self.params,
            self.tmp,
        )?;
        match query_fate(rules, &outcome, self.query, self.tmp, &mut edit.fired) {
            QueryFate::Keep => {}
            QueryFate::Drop => edit.drop_query = true,
            QueryFate::New => edit.new_query = true,
        }
        Some(())
    }
}

/// Runs the parameter rules on `query` of a URL whose (final) host is
/// `host`, appending the new query to `out` when they change it. `single`
/// says that the query has no `&`. `None`, having written nothing, when
/// `session-ids-anywhere` finds a session id (the general path's).
#[inline(always)]
pub(super) fn params_outcome(
    setup: &Setup,
    host: &[u8],
    query: &[u8],
    single: bool,
    scratch: &mut QueryScratch,
    out: &mut Vec<u8>,
) -> Option<query::Outcome> {
    let (plan, config) = (&setup.plan, &setup.config);
    let rules = plan.rules;
    if rules.intersection(query::Params::RULES).is_empty() {
        return Some(query::Outcome::default());
    }
    if plan.session_ids(query, single) {
        return None;
    }
    let config = query::Params {
        rules: query_session::param_rules(rules),
        tracking: &config.tracking,
        host,
        starts: Some(&plan.param_starts),
    };
    // (`apply_plain` gives the same for a query without `&`, at some
    // cost.)
    Some(if single {
        query::apply_single(query, &config, scratch)
    } else {
        query::apply_plain(query, &config, scratch, out)
    })
}

/// What becomes of a query once the parameter rules have run.
#[derive(Clone, Copy, Debug)]
pub(super) enum QueryFate {
    /// It stays as it was.
    Keep,
    /// It goes, `?` and all.
    Drop,
    /// The parameter rules wrote a new one.
    New,
}

/// The fate of `query` after the parameter rules' `outcome`
/// ([`params_outcome`], which wrote `written` when it changed the query)
/// and `drop-empty-query`; adds the rules that fired to `fired`.
#[inline(always)]
pub(super) fn query_fate(
    rules: RuleSet,
    outcome: &query::Outcome,
    query: &[u8],
    written: &[u8],
    fired: &mut RuleSet,
) -> QueryFate {
    if outcome.changed {
        *fired = fired.union(outcome.fired);
        if outcome.stripped_all {
            // Every parameter was stripped: the `?` goes too.
            return QueryFate::Drop;
        }
        // Parameters were dropped or reordered (`apply_single` writes
        // nothing: it only strips all). As in the general path,
        // drop-empty-query looks at the result.
        debug_assert!(query.contains(&b'&'), "apply_single writes nothing");
        if written.is_empty() && rules.contains(Rule::DropEmptyQuery) {
            fired.insert(Rule::DropEmptyQuery);
            return QueryFate::Drop;
        }
        return QueryFate::New;
    }
    if query.is_empty() && rules.contains(Rule::DropEmptyQuery) {
        fired.insert(Rule::DropEmptyQuery);
        return QueryFate::Drop;
    }
    QueryFate::Keep
}
