// ada's own C++ entry points, timed by `normurl bench` (--features peers).
//
// The loop over the URLs is here, in C++, as in ada's benchmarks
// (benchmarks/benchmark_template.cpp in ada-url/ada: `ada::parse<
// ada::url_aggregator>` per input, `get_href().size()` summed), so there
// is no foreign call per URL. Built by build.rs against the ada.h of the
// ada-url crate, and linked to the ada that crate builds.
//
// ada::url_aggregator owns its href buffer: each parse allocates it, and
// ada offers no way to parse into an existing one. ada's benchmark pays
// the same.

#include <cstddef>
#include <string_view>

#include "ada.h"

// One line: a borrowed UTF-8 slice (Rust's `Span`, #[repr(C)]).
struct normurl_span {
  const char* ptr;
  size_t len;
};

// Parses every line with ada::parse<ada::url_aggregator>; returns the sum
// of the hrefs' lengths and stores the number of valid URLs in *valid.
extern "C" size_t normurl_ada_parse_hrefs(const normurl_span* lines, size_t n,
                                          size_t* valid) {
  size_t href_bytes = 0;
  size_t ok = 0;
  for (size_t i = 0; i < n; i++) {
    auto url = ada::parse<ada::url_aggregator>(
        std::string_view(lines[i].ptr, lines[i].len));
    if (url) {
      ok++;
      href_bytes += url->get_href().size();
    }
  }
  *valid = ok;
  return href_bytes;
}

// ada::can_parse on every line, ada's fastest validation (no href is
// built); returns the number of valid URLs.
extern "C" size_t normurl_ada_can_parse(const normurl_span* lines, size_t n) {
  size_t ok = 0;
  for (size_t i = 0; i < n; i++) {
    ok += ada::can_parse(std::string_view(lines[i].ptr, lines[i].len));
  }
  return ok;
}
