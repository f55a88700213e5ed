/*!
Canonicalization: rules applied after WHATWG parsing so that URLs naming the
same resource get the same string, plus the SURT and SSURT forms and the
hash of dedup keys.

# Brief overview

- A [`Rule`] is one documented transformation (`sort-query`,
  `strip-www`...). A [`RuleSet`] is a set of them.
- A [`Profile`] is a named rule set: `whatwg` (nothing), `semantic`
  (RFC 3986 safe normalizations), `aggressive` (dedup keys), and profiles
  named after the tools whose keys they reproduce: `google` (Safe
  Browsing; also `safe-browsing`), `wayback` (CDX keys),
  `urlcanon-semantic`, `urlcanon-aggressive` and `w3lib`.
- A [`Canonicalizer`] is built once from a profile, rule edits
  (`+name,-name`), a tracking-parameter list, an [`OutputForm`] and an
  [`IdnForm`]. [`Canonicalizer::apply`] writes one URL's canonical form
  into a caller buffer, using a per-thread [`Scratch`], and returns the
  rules that changed something.
- [`key_hash`] hashes a key to 128 bits for deduplication.

Canonical URLs are valid URL serializations and idempotent: parsing the
output and canonicalizing it again gives the same bytes, for every profile.

# Fast path and general path

[`Canonicalizer::apply`] first tries a fast path (`fast.rs`): one SSE2
scan (`classify.rs`) of the host and path for the bytes that would give a
rule more to do than cutting a range (`%`, `//`, `..`, `;`, `(`,
uppercase, as the rules need), one of the query when there is one, and the
URL's offsets. Most URLs have none of those bytes, and the rules that
remain only cut ranges out of the href (`www.`, a trailing `/`, the
fragment, a query of one tracking parameter), so the output is one or two
copies. When some rule would rewrite bytes, the fast path declines before
writing and the general path (`canonicalizer.rs`) applies every rule to
copies of the components; it is also the reference the fast path is tested
against.

# Example

```
use normurl::canon::{Canonicalizer, Profile, Scratch};
use normurl::Url;

let canon = Canonicalizer::builder(Profile::Aggressive)
    .rules("-strip-trailing-slash")?
    .build();
let mut scratch = Scratch::new();
let mut url = Url::parse("about:blank").unwrap();
let mut out = Vec::new();
for line in ["https://www.example.com/a/?b=2&a=1#x", "https://example.com/a/?a=1&b=2&utm_medium=mail"] {
    url.parse_into(line, None).unwrap();
    out.clear();
    let fired = canon.apply(&url, &mut scratch, &mut out);
    assert_eq!(out, b"https://example.com/a/?a=1&b=2", "{fired}");
}
# Ok::<(), normurl::canon::ConfigError>(())
```
*/

mod canonicalizer;
mod cdx_key;
mod config;
mod error;
mod fast;
pub mod form;
mod fused;
mod general;
mod hash;
mod input;
mod profile;
mod rule;
mod rules;
mod scratch;
mod surt;

pub use canonicalizer::{Canonicalizer, CanonicalizerBuilder};
pub use config::{IdnForm, OutputForm};
pub use error::ConfigError;
pub use hash::key_hash;
pub use input::parse_with_default_scheme;
pub use profile::Profile;
pub use rule::{Rule, RuleSet};
pub use scratch::Scratch;
pub use surt::{reverse_host, ssurt_host, SurtOptions};
// The public-suffix lookup, where the next rules (issue 31) look for it.
#[allow(unused_imports)]
pub(crate) use rules::public_suffix;
pub use rules::tracking::TrackingParams;
use rules::{host, percent, query};
