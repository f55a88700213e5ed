//! The end-of-run summary of `--stats` (text, for people) and
//! `--stats-json` (for scripts).

use std::fmt::Write;
use std::time::Duration;

use normurl::normalize::Stats;
use normurl::pipeline::Summary;

use super::json::Object;

/// The text summary, one item per line.
pub fn text(s: &Summary<Stats>, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    let st = &s.stats;
    let mut rows: Vec<(String, String)> = Vec::new();
    let mut line = |label: &str, value: String| rows.push((label.to_string(), value));
    line("lines", group(s.records));
    if s.unit_ended_records > 0 {
        // Lines whose gzip member or zstd frame ended without a line
        // break: the end of the member ended them.
        line("  ended by a member end", group(s.unit_ended_records));
    }
    line("valid", group(st.valid));
    line("invalid", group(st.invalid()));
    for (why, n) in st.invalid_by_reason() {
        line(&format!("  {}", why.name()), group(n));
    }
    line("blank", group(st.blank));
    if st.headers > 0 {
        line("headers", group(st.headers));
    }
    if st.edits_refused > 0 {
        line("edits refused", group(st.edits_refused));
    }
    line("skipped", group(st.skipped));
    line("dropped", group(st.dropped));
    line("deduplicated", group(s.deduplicated));
    line("output lines", group(s.output_records));
    line("bytes in", group(s.bytes_in));
    if s.raw_bytes_in != s.bytes_in {
        line("bytes in (compressed)", group(s.raw_bytes_in));
    }
    line("bytes out", group(s.bytes_out));
    line("seconds", format!("{secs:.3}"));
    line("lines/s", group(per_second(s.records as f64, secs) as u64));
    line(
        "MB/s",
        format!("{:.1}", per_second(s.bytes_in as f64 / 1e6, secs)),
    );
    // CPU seconds by stage (they vary from run to run, as `seconds`
    // does): what the run would gain from more cores.
    for (label, d) in cpu_stages(s) {
        line(&format!("cpu {label}"), format!("{:.3}", d.as_secs_f64()));
    }
    // Reasons' names are long; the columns fit the longest label.
    let width = rows.iter().map(|(l, _)| l.len()).max().unwrap_or(0) + 2;
    let mut t = String::new();
    for (label, value) in rows {
        let _ = writeln!(t, "{label:<width$}{value:>14}");
    }
    t
}

/// The same as a JSON object.
pub fn json(s: &Summary<Stats>, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    let st = &s.stats;
    let mut reasons = Object::new("");
    for (why, n) in st.invalid_by_reason() {
        reasons.uint(why.name(), n);
    }
    let mut cpu = Object::new("");
    for (label, d) in cpu_stages(s) {
        cpu.float(label, d.as_secs_f64());
    }
    let mut o = Object::new("  ");
    o.uint("lines", s.records)
        .uint("lines_ended_by_member_end", s.unit_ended_records)
        .uint("valid", st.valid)
        .uint("invalid", st.invalid())
        .object("invalid_by_reason", reasons)
        .uint("blank", st.blank)
        .uint("headers", st.headers)
        .uint("skipped", st.skipped)
        .uint("dropped", st.dropped)
        .uint("edits_refused", st.edits_refused)
        .uint("deduplicated", s.deduplicated)
        .uint("output_lines", s.output_records)
        .uint("bytes_in", s.bytes_in)
        .uint("bytes_in_compressed", s.raw_bytes_in)
        .uint("bytes_out", s.bytes_out)
        .float("seconds", secs)
        .float("lines_per_second", per_second(s.records as f64, secs))
        .float("mb_per_second", per_second(s.bytes_in as f64 / 1e6, secs))
        .object("cpu_seconds", cpu);
    let mut text = o.finish();
    text.push('\n');
    text
}

/// The CPU time of each stage of the run (see [`CpuTimes`]), by the name
/// `--stats` and `--stats-json` give it.
///
/// [`CpuTimes`]: normurl::pipeline::CpuTimes
fn cpu_stages(s: &Summary<Stats>) -> [(&'static str, Duration); 6] {
    let c = &s.cpu;
    [
        ("read", c.read),
        ("workers", c.transform),
        ("dedup", c.dedup),
        ("write", c.write),
        ("other", c.other()),
        ("total", c.total),
    ]
}

fn per_second(n: f64, secs: f64) -> f64 {
    if secs > 0.0 {
        n / secs
    } else {
        0.0
    }
}

/// `1234567` as `1,234,567`.
fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grouping() {
        assert_eq!(group(0), "0");
        assert_eq!(group(999), "999");
        assert_eq!(group(1000), "1,000");
        assert_eq!(group(1234567), "1,234,567");
    }
}
