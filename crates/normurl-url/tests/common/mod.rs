//! What the setter tests share.

use normurl_url::Url;

/// Runs the setter named as in the URL Standard's API (`href`,
/// `protocol`, ... `hash`) with `value`: `Some(changed)` (for `href`,
/// `Some(true)` when it parsed), `None` when `href`'s value is no URL.
pub fn set(url: &mut Url, name: &str, value: &str) -> Option<bool> {
    Some(match name {
        "href" => return url.set_href(value).ok().map(|()| true),
        "protocol" => url.set_protocol(value),
        "username" => url.set_username(value),
        "password" => url.set_password(value),
        "host" => url.set_host(value),
        "hostname" => url.set_hostname(value),
        "port" => url.set_port(value),
        "pathname" => url.set_pathname(value),
        "search" => url.set_search(value),
        "hash" => url.set_hash(value),
        other => panic!("unknown setter {other}"),
    })
}
