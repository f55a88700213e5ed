//! ARC files (the Internet Archive's format before WARC, written by
//! Heritrix 1 and older crawlers): version 1 and the IA's version 2, plain
//! or gzip with one member per record.
//!
//! A file starts with its version block, a record whose URL is
//! `filedesc://NAME` and whose block starts with the version line
//! (`1 0 ...` or `2 0 ...`) and the field list; each record is one header
//! line then LENGTH bytes (the HTTP response as fetched) and a newline.
//! Version 1's header line is `URL IP DATE MIME LENGTH`; version 2's is
//! `URL IP DATE MIME CODE CHECKSUM LOCATION OFFSET FILENAME LENGTH`.
//!
//! Records are read as warcio's ARC-to-WARC conversion, which pywb's
//! `cdxj-indexer` uses, presents them: the version block is a `warcinfo`
//! record, every other record a `response` whose target URI is the URL
//! (spaces escaped as `%20`) and whose date is the 14-digit DATE.

/// The fields of an ARC record's header line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArcHeader {
    /// The URL (`filedesc://NAME` for the version block).
    pub url: String,
    /// The date, 14 digits as written (`20060519043512`).
    pub date: String,
    /// The content type the crawler recorded.
    pub mime: String,
    /// The bytes after the header line.
    pub length: u64,
}

/// Parses an ARC header line (without its newline) of a file of
/// `version` (1 or 2; the version block itself is read as version 1).
/// The URL may hold spaces, so the fields are taken from the right, as
/// warcio does. `None` if the line has too few fields or its length is
/// not a number.
pub fn parse_header(line: &str, version: u8) -> Option<ArcHeader> {
    let line = line.trim_end_matches(super::head::py_space);
    let fields = if version == 2 && !line.starts_with("filedesc://") {
        10
    } else {
        5
    };
    let parts: Vec<&str> = line.rsplitn(fields, ' ').collect();
    if parts.len() != fields {
        return None;
    }
    // rsplitn gives the fields from the right: LENGTH first, URL last.
    let length = parts[0].parse::<u64>().ok()?;
    Some(ArcHeader {
        url: parts[fields - 1].to_string(),
        date: parts[fields - 3].to_string(),
        mime: parts[fields - 4].to_string(),
        length,
    })
}

/// The version of an ARC file from the first line of its version block's
/// block (`1 0 Internet Archive`): 2 if it says so, else 1.
pub fn version(first_line: &[u8]) -> u8 {
    if first_line.starts_with(b"2 ") {
        2
    } else {
        1
    }
}

/// A 14-digit timestamp from an ARC date, as warcio's
/// `timestamp_to_datetime` makes it: digits missing at the end are those
/// of `29991231235959`, beyond 14 are ignored, and each field is clamped
/// to its range (year 1900 to 2999, the day to its month's days); a field
/// that is no number is its maximum.
pub fn timestamp(date: &str) -> String {
    const PAD_6_UP: &str = "299912";
    let mut s = date.to_string();
    if s.len() < PAD_6_UP.len() {
        s.push_str(PAD_6_UP.get(s.len()..).unwrap_or(""));
    }
    let field = |start: usize, end: usize, min: u32, max: u32| -> u32 {
        match s.get(start..end) {
            Some(v) => match v.trim_matches(super::head::py_space).parse::<i64>() {
                Ok(n) => n.clamp(i64::from(min), i64::from(max)) as u32,
                Err(_) => max,
            },
            None => max,
        }
    };
    let year = field(0, 4, 1900, 2999);
    let month = field(4, 6, 1, 12);
    let day = field(6, 8, 1, days_in_month(year, month));
    let hour = field(8, 10, 0, 23);
    let minute = field(10, 12, 0, 59);
    let second = field(12, 14, 0, 59);
    format!("{year:04}{month:02}{day:02}{hour:02}{minute:02}{second:02}")
}

/// The days of `month` (1 to 12) in `year`, in the proleptic Gregorian
/// calendar.
pub fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => {
            29
        }
        2 => 28,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_lines() {
        let h = parse_header(
            "http://a.example/x y 1.2.3.4 20050614070159 text/html 1337",
            1,
        )
        .unwrap();
        assert_eq!(h.url, "http://a.example/x y");
        assert_eq!(
            (h.date.as_str(), h.mime.as_str()),
            ("20050614070159", "text/html")
        );
        assert_eq!(h.length, 1337);
        let v2 = "http://b.example/ 1.2.3.4 20060519043512 text/html 200 ABC - 0 f.arc 99";
        let h = parse_header(v2, 2).unwrap();
        assert_eq!((h.url.as_str(), h.length), ("http://b.example/", 99));
        assert_eq!(h.mime, "text/html");
        let desc = "filedesc://f.arc 0.0.0.0 20060519043512 text/plain 76";
        assert_eq!(parse_header(desc, 2).unwrap().url, "filedesc://f.arc");
        assert_eq!(parse_header("a b c", 1), None);
        assert_eq!(parse_header("a 1.2.3.4 2005 text/html x", 1), None);
    }

    #[test]
    fn timestamps() {
        for (date, stamp) in [
            ("20050614070159", "20050614070159"),
            ("2005061407015912", "20050614070159"),
            ("2014122609501", "20141226095059"),
            ("2014", "20141231235959"),
            ("20140230", "20140228235959"),
            ("20000230", "20000229235959"),
            ("1800xx", "19001231235959"),
            ("", "29991231235959"),
        ] {
            assert_eq!(timestamp(date), stamp, "{date}");
        }
    }
}
