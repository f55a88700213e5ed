//! WARC and WAT records for tests of `normurl warc`.

/// A WAT metadata record (Common Crawl's layout) for `page`, with `html`
/// as its HTML-Metadata and `headers` as the response's.
pub fn wat_record(page: &str, html: serde_json::Value, headers: serde_json::Value) -> Vec<u8> {
    let json = serde_json::json!({
        "Container": {"Filename": "x.warc.gz", "Compressed": true, "Offset": "1"},
        "Envelope": {
            "Format": "WARC",
            "WARC-Header-Metadata": {"WARC-Type": "response", "WARC-Target-URI": page},
            "Payload-Metadata": {"HTTP-Response-Metadata": {
                "Response-Message": {"Status": "200"},
                "Headers": headers,
                "HTML-Metadata": html,
            }},
        },
    })
    .to_string();
    let mut r = format!(
        "WARC/1.0\r\nWARC-Type: metadata\r\nWARC-Target-URI: {page}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        json.len()
    )
    .into_bytes();
    r.extend_from_slice(json.as_bytes());
    r.extend_from_slice(b"\r\n\r\n");
    super::bin::gzip(&r)
}

/// A plain WARC record of `kind`, with `uri` as its WARC-Target-URI.
pub fn record(kind: &str, uri: Option<&str>, block: &[u8]) -> Vec<u8> {
    let mut r = format!("WARC/1.1\r\nWARC-Type: {kind}\r\n");
    if let Some(u) = uri {
        r.push_str(&format!("WARC-Target-URI: {u}\r\n"));
    }
    r.push_str(&format!("Content-Length: {}\r\n\r\n", block.len()));
    let mut r = r.into_bytes();
    r.extend_from_slice(block);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

/// A WARC/1.1 record with these header fields, in order, and a
/// Content-Length for `block`.
pub fn with_fields(fields: &[(&str, &str)], block: &[u8]) -> Vec<u8> {
    let mut r = b"WARC/1.1\r\n".to_vec();
    for (name, value) in fields {
        r.extend_from_slice(format!("{name}: {value}\r\n").as_bytes());
    }
    r.extend_from_slice(format!("Content-Length: {}\r\n\r\n", block.len()).as_bytes());
    r.extend_from_slice(block);
    r.extend_from_slice(b"\r\n\r\n");
    r
}
