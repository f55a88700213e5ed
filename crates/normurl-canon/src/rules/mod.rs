//! The rules' reference functions, one module per family. Each function
//! is the specification of its rule's behaviour on one component (or on a
//! query parameter); the general path (`canon/general.rs`) composes them,
//! and every fast path is tested against that composition. The table in
//! `canon/mod.rs` says which function is whose.

pub(crate) mod data_url;
pub(crate) mod decode_uri;
pub(crate) mod directory_index;
pub(crate) mod domain_params;
pub(crate) mod escapes;
pub(crate) mod form_encode;
pub(crate) mod fragment;
pub(crate) mod glob;
pub(crate) mod host;
pub(crate) mod lists;
pub(crate) mod params;
pub(crate) mod path;
pub(crate) mod percent;
pub(crate) mod public_suffix;
pub(crate) mod query;
pub(crate) mod query_session;
pub(crate) mod redirect;
pub(crate) mod scheme;
pub(crate) mod search_params;
pub(crate) mod separators;

pub(crate) mod tracking;
