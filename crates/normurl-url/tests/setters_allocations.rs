//! The setters write into buffers reused on each thread, and a URL's old
//! serialization goes back for the next call: once warm, parsing a line
//! and calling a setter on it (what `normurl --set` does on every line)
//! allocates exactly what parsing the line alone allocates (nothing in
//! release builds for ASCII hosts). One test in this binary, so that the
//! counting allocator sees only it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use normurl_url::{SearchParams, Url};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    f();
    ALLOCATIONS.load(Ordering::Relaxed) - before
}

type Setter = fn(&mut Url, &str) -> bool;

#[test]
fn a_warm_setter_allocates_nothing_beyond_the_parse() {
    let lines = [
        "https://example.com/a/b?q=1&utm_source=x#f",
        "http://user:pw@www.example.org:8080/~x/y.html",
        "https://example.net/",
        "file:///tmp/a.txt",
        "web+demo://h/p?x#y",
        "http://[::1]/?a=b+c",
    ];
    let setters: [(&str, Setter, &str); 11] = [
        ("protocol", Url::set_protocol, "https"),
        ("protocol", Url::set_protocol, "HTTP"),
        ("username", Url::set_username, "me@home"),
        ("password", Url::set_password, "secret"),
        ("host", Url::set_host, "Example.ORG:81"),
        ("hostname", Url::set_hostname, "example.org"),
        ("port", Url::set_port, "8443"),
        ("pathname", Url::set_pathname, "/a b/../c"),
        ("search", Url::set_search, "?q=a b"),
        ("hash", Url::set_hash, "#top <1>"),
        ("hash", Url::set_hash, ""),
    ];
    let mut url = Url::parse("about:blank").unwrap();
    for (name, setter, value) in setters {
        let mut round = |count: bool| {
            let mut parse_only = 0;
            let mut with_setter = 0;
            for line in lines {
                parse_only += allocations(|| url.parse_into(line, None).unwrap());
                with_setter += allocations(|| {
                    url.parse_into(line, None).unwrap();
                    setter(&mut url, value);
                });
            }
            if count {
                assert_eq!(with_setter, parse_only, "{name} = {value:?}");
                if !cfg!(debug_assertions) {
                    assert_eq!(with_setter, 0, "{name} = {value:?}");
                }
            }
        };
        // Warm: the thread's buffers and the URL's grow to the sizes the
        // lines need.
        round(false);
        round(false);
        round(true);
    }
    // URLSearchParams written back: its serialization is reused too.
    let mut params = SearchParams::new("b=2&a=1");
    params.sort();
    let mut round = |count: bool| {
        let mut parse_only = 0;
        let mut with_params = 0;
        for line in lines {
            parse_only += allocations(|| url.parse_into(line, None).unwrap());
            with_params += allocations(|| {
                url.parse_into(line, None).unwrap();
                url.set_search_params(&params);
            });
        }
        if count {
            assert_eq!(with_params, parse_only, "set_search_params");
        }
    };
    round(false);
    round(false);
    round(true);
}
