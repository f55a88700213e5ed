//! Output that other tools can read (issue "Reliability III"), each
//! through the binary: `--header --json` is JSON throughout, `--add-field`
//! gives every CSV or TSV row the same columns, `--csv` keeps each
//! record's line break and a quote left open comes back as it was,
//! `--json-field` reads the last of duplicate keys as jq does, and a comma
//! in a host gives one answer in `surt` and `reversed_host`. What each
//! must give is in docs/guarantees.md and docs/surt.md.

mod common;

use common::bin::{file, run};

/// The records of `bytes`, read as RFC 4180 CSV with `,`: fields with
/// their quotes removed and `""` undone. A line break inside quotes is
/// data; `\r\n` and `\n` end a record outside them. A blank line is no
/// record (as Python's csv and pandas skip it).
fn csv_records(bytes: &[u8]) -> Vec<Vec<String>> {
    let (mut records, mut record, mut field) = (Vec::new(), Vec::new(), Vec::new());
    let (mut quoted, mut at_start) = (false, true);
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if quoted {
            match b {
                b'"' if bytes.get(i + 1) == Some(&b'"') => {
                    field.push(b'"');
                    i += 1;
                }
                b'"' => quoted = false,
                _ => field.push(b),
            }
        } else {
            match b {
                b'"' if at_start => quoted = true,
                b',' => {
                    record.push(String::from_utf8(std::mem::take(&mut field)).unwrap());
                    at_start = true;
                    i += 1;
                    continue;
                }
                b'\r' if bytes.get(i + 1) == Some(&b'\n') => {}
                b'\n' => {
                    if !(record.is_empty() && field.is_empty()) {
                        record.push(String::from_utf8(std::mem::take(&mut field)).unwrap());
                        records.push(std::mem::take(&mut record));
                    }
                    at_start = true;
                    i += 1;
                    continue;
                }
                _ => field.push(b),
            }
        }
        at_start = false;
        i += 1;
    }
    assert!(!quoted, "a quote left open in the output");
    if !(record.is_empty() && field.is_empty()) {
        record.push(String::from_utf8(field).unwrap());
        records.push(record);
    }
    records
}

#[test]
fn csv_reader_of_these_tests() {
    assert_eq!(
        csv_records(b"a,\"b,\"\"c\"\"\r\nd\"\r\n\n,x\n"),
        [vec!["a", "b,\"c\"\r\nd"], vec!["", "x"]]
    );
}

/// `--header --json`: every output line is a JSON object, the header's
/// `{"header":LINE,"line":1}`, in every mode a header goes with.
#[test]
fn header_with_json_is_json_too() {
    let csv = "id,url\r\n1,HTTP://A.example/x/../y\r\n2,not a url\r\n\r\n3,\"http://b.example/?q=a,b\"\r\n";
    let jsonl = "{\"h\":1}\n{\"url\":\"HTTP://C.example\"}\n";
    let cases: [(&[&str], &str, &str); 4] = [
        (&["--csv", "-f", "2"], csv, "id,url"),
        (
            &["-d", "\\t", "-f", "2"],
            "id\turl\nx\thttp://a.example/\n",
            "id\turl",
        ),
        (
            &[],
            "# urls \"quoted\"\nhttp://a.example/\n",
            "# urls \"quoted\"",
        ),
        (&["--json-field", "url"], jsonl, "{\"h\":1}"),
    ];
    for (args, input, header) in cases {
        for extra in [&["-j", "1"][..], &["-j", "2", "--batch-bytes", "1"]] {
            let args = [args, &["--header", "--json"], extra].concat();
            let ran = run(&args, input.as_bytes()).ok();
            let text = ran.out();
            let objects: Vec<serde_json::Value> = text
                .lines()
                .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{args:?}: {l:?}: {e}")))
                .collect();
            assert_eq!(objects[0]["header"], header, "{args:?}");
            assert_eq!(objects[0]["line"], 1, "{args:?}");
            assert!(objects[1]["href"].is_string(), "{args:?}: {text}");
            assert!(objects.iter().skip(1).all(|o| o.get("header").is_none()));
        }
    }
}

/// `--add-field` with `--csv --header`: the header gets the column's name,
/// valid rows the value (quoted when it holds a comma), rows without a URL
/// an empty column; every row has the same number of fields.
#[test]
fn add_field_gives_every_csv_row_the_column() {
    let input = concat!(
        "id,url,title\r\n",
        "1,HTTP://A.example/x/../y,t\r\n",
        "2,\"http://b.example/?q=a,b\",\"t, u\"\r\n",
        "3,not a url,t\r\n",
        "4,,t\r\n",
        "5,\"HTTP://C.example/\"\"\",t\r\n",
    );
    let cases = [
        (
            "url",
            "normalized_url",
            "http://a.example/y",
            "http://b.example/?q=a,b",
        ),
        ("host", "host", "a.example", "b.example"),
        ("surt", "surt", "example,a)/y", "example,b)/?q=a,b"),
    ];
    for (get, name, first, second) in cases {
        for place in ["first", "last"] {
            for extra in [&["-j", "1"][..], &["-j", "2", "--batch-bytes", "3"]] {
                let args = [
                    &[
                        "--csv",
                        "--header",
                        "-f",
                        "2",
                        "-g",
                        get,
                        "--add-field",
                        place,
                    ][..],
                    extra,
                ]
                .concat();
                let ran = run(&args, input.as_bytes()).ok();
                let rows = csv_records(&ran.stdout);
                assert_eq!(rows.len(), 6, "{args:?}: {}", ran.out());
                for row in &rows {
                    assert_eq!(row.len(), 4, "{args:?}: {row:?} in {}", ran.out());
                }
                let column = |row: &Vec<String>| {
                    let at = if place == "first" { 0 } else { 3 };
                    row[at].clone()
                };
                let original = |row: &Vec<String>| {
                    let at = if place == "first" { 1..4 } else { 0..3 };
                    row[at].to_vec()
                };
                assert_eq!(column(&rows[0]), name, "{args:?}");
                assert_eq!(original(&rows[0]), ["id", "url", "title"]);
                assert_eq!(column(&rows[1]), first, "{args:?}");
                assert_eq!(column(&rows[2]), second, "{args:?}");
                assert_eq!(original(&rows[2]), ["2", "http://b.example/?q=a,b", "t, u"]);
                assert_eq!(column(&rows[3]), "", "{args:?}");
                assert_eq!(original(&rows[3]), ["3", "not a url", "t"]);
                assert_eq!(column(&rows[4]), "", "{args:?}");
                assert_eq!(original(&rows[5]), ["5", "HTTP://C.example/\"", "t"]);
            }
        }
    }
    // A value with a quote (a template's literal) is quoted, `""` inside.
    let args = ["--csv", "-f", "2", "-g", "{host}\"", "--add-field", "last"];
    let ran = run(&args, b"1,http://a.example/,t\n").ok();
    assert_eq!(ran.out(), "1,http://a.example/,t,\"a.example\"\"\"\n");
}

/// The same with a tab and with blanks as delimiters: a header gets the
/// name joined as the values are, kept invalid and over-long lines an
/// empty column; blank lines stay blank.
#[test]
fn add_field_gives_every_delimited_line_the_column() {
    let long = format!("7\thttp://long.example/{}\tt", "x".repeat(100));
    let tsv =
        format!("id\turl\ttitle\n1\tHTTP://A.example/\tt\n2\tnot a url\tt\n3\t\tt\n\n{long}\n");
    for place in ["first", "last"] {
        let args = [
            "-d",
            "\\t",
            "-f",
            "2",
            "--header",
            "--add-field",
            place,
            "--max-line-bytes",
            "60",
        ];
        let ran = run(&args, tsv.as_bytes()).ok();
        let text = ran.out();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 6, "{text}");
        assert_eq!(lines[4], "", "a blank line stays blank");
        for line in lines.iter().filter(|l| !l.is_empty()) {
            assert_eq!(line.split('\t').count(), 4, "{place}: {line:?}");
        }
        let (header, valid, invalid) = match place {
            "first" => (
                "normalized_url\tid\turl\ttitle",
                "http://a.example/\t1\tHTTP://A.example/\tt",
                "\t2\tnot a url\tt",
            ),
            _ => (
                "id\turl\ttitle\tnormalized_url",
                "1\tHTTP://A.example/\tt\thttp://a.example/",
                "2\tnot a url\tt\t",
            ),
        };
        assert_eq!(lines[..3], [header, valid, invalid], "{place}");
    }
    // Blank-separated fields, and a template of two columns: its header
    // names both. An empty value is `-` there (a run of blanks is one
    // separator).
    let input = "id url\n1 HTTP://A.example/\n2 ?\n";
    let args = [
        "-f",
        "2",
        "--header",
        "-g",
        "{host} {url}",
        "--add-field",
        "last",
    ];
    let ran = run(&args, input.as_bytes()).ok();
    assert_eq!(
        ran.out(),
        "id url host normalized_url\n1 HTTP://A.example/ a.example http://a.example/\n2 ? -\n"
    );
    let args = ["-f", "2", "-g", "port", "--add-field", "first"];
    let ran = run(&args, b"1 http://a.example/\n2 http://a.example:81/\n3 ?\n").ok();
    assert_eq!(
        ran.out(),
        "- 1 http://a.example/\n81 2 http://a.example:81/\n- 3 ?\n"
    );
}

/// `--only-field --header`: the header's own field at the URL's place
/// names the one column written.
/// `--explain` adds a tab and the rules to every line: the header gets the
/// column's name, `rules`, so that it has as many columns as the rows.
#[test]
fn explain_gives_the_header_its_column() {
    let input = "id\turl\n1\thttp://A.com/a/../b?utm_source=x\n2\tnot a url\n";
    let ran = run(
        &[
            "--header",
            "-d",
            "\t",
            "-f",
            "2",
            "-p",
            "aggressive",
            "--explain",
        ],
        input.as_bytes(),
    )
    .ok();
    let out = String::from_utf8(ran.stdout).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "id\turl\trules", "{out}");
    for line in &lines {
        assert_eq!(line.split('\t').count(), 3, "{out}");
    }
}

#[test]
fn only_field_writes_the_header_field() {
    let input = "id,\"url\",title\n1,HTTP://A.example/,t\n";
    let ran = run(
        &["--csv", "-f", "2", "--header", "--only-field"],
        input.as_bytes(),
    )
    .ok();
    assert_eq!(ran.out(), "url\nhttp://a.example/\n");
}

/// `--csv` writes each record with the line break it ended with: CRLF
/// stays CRLF (the header's too, and an over-long record's), LF stays LF.
#[test]
fn csv_keeps_each_records_line_break() {
    let long = format!("5,http://long.example/{},t", "x".repeat(100));
    let input = format!(
        "id,url\r\n1,HTTP://A.example/x/../y\r\n2,http://b.example/\n3,\"x\r\ny\",z\r\n4,not a url\r\n\r\n{long}\r\n6,http://c.example/"
    );
    let expected = format!(
        "id,url\r\n1,http://a.example/y\r\n2,http://b.example/\n3,\"x\r\ny\",z\r\n4,not a url\r\n\r\n{long}\r\n6,http://c.example/\n"
    );
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, "crlf.csv", input.as_bytes());
    for extra in [
        &["-j", "1"][..],
        &["-j", "2", "--batch-bytes", "1"],
        &["-j", "2", "--batch-bytes", "7"],
    ] {
        let args = [
            &[
                "--csv",
                "-f",
                "2",
                "--header",
                "--max-line-bytes",
                "60",
                &path,
            ][..],
            extra,
        ]
        .concat();
        let ran = run(&args, b"").ok();
        assert_eq!(ran.out(), expected, "{extra:?}");
        // --json objects end as their records did, and are still JSON.
        let args = [&["--csv", "-f", "2", "--json", &path][..], extra].concat();
        let ran = run(&args, b"").ok();
        assert_eq!(ran.stdout.windows(2).filter(|w| w == b"\r\n").count(), 6);
        for l in ran.out().lines() {
            serde_json::from_str::<serde_json::Value>(l).unwrap();
        }
    }
}

/// A quote left open at the end of the input: the record comes back byte
/// for byte, its final line break (LF or CRLF) once, not twice.
#[test]
fn csv_unclosed_quote_comes_back_as_it_was() {
    for end in ["\n", "\r\n", ""] {
        let input = format!("1,http://a.example/\n2,\"http://b.example/\n3,x{end}");
        let expected = if end.is_empty() {
            format!("{input}\n")
        } else {
            input.clone()
        };
        for extra in [&["-j", "1"][..], &["-j", "2", "--batch-bytes", "1"]] {
            let args = [&["--csv", "-f", "2", "--stats"][..], extra].concat();
            let ran = run(&args, input.as_bytes()).ok();
            assert_eq!(ran.out(), expected, "{end:?} {extra:?}");
            assert!(ran.stderr.contains("unclosed-quote"), "{}", ran.stderr);
            // With a new column too: one after it would be in its quotes.
            let args = [&["--csv", "-f", "2", "--add-field", "last"][..], extra].concat();
            let ran = run(&args, input.as_bytes()).ok();
            let first = "1,http://a.example/,http://a.example/\n";
            assert_eq!(ran.out(), format!("{first}{}", &expected[20..]), "{end:?}");
        }
    }
}

/// `--json-field` reads the last of duplicate keys, as jq and Python do,
/// and rewrites that one.
#[test]
fn json_field_takes_the_last_of_duplicate_keys() {
    let input = concat!(
        "{\"url\":\"HTTP://A.example/\",\"url\":\"HTTP://B.example/x/../y\"}\n",
        "k 1 {\"a\":{\"url\":\"HTTP://C.example/\"},\"a\":{\"url\":\"HTTP://D.example/\",\"url\":\"HTTP://E.example/\"}}\n",
        "{\"url\":\"HTTP://F.example/\",\"url\":null}\n",
    );
    let ran = run(
        &["--json-field", "url", "--on-invalid=empty"],
        input.as_bytes(),
    )
    .ok();
    let out = ran.out();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "{\"url\":\"HTTP://A.example/\",\"url\":\"http://b.example/y\"}"
    );
    // A later key with no string hides the earlier one.
    assert_eq!(lines[2], "");
    let ran = run(
        &[
            "--json-field",
            "a.url",
            "--only-field",
            "--on-invalid=empty",
        ],
        input.as_bytes(),
    )
    .ok();
    assert_eq!(ran.out(), "\nhttp://e.example/\n\n");
    // What jq and Python read there, serde_json reads too.
    let v: serde_json::Value = serde_json::from_str(input.lines().next().unwrap()).unwrap();
    assert_eq!(v["url"], "HTTP://B.example/x/../y");
}

/// A comma in a host (a valid host code point in the URL Standard): the
/// CDX key keeps it, as the surt package and webarchive-commons do, and
/// `reversed_host` and `--json`'s `surt` agree; urlcanon's SSURT, which
/// must split back into labels, writes it as a dot.
#[test]
fn comma_in_a_host() {
    let input = "http://a,b.example.com/\nhttp://b.a.example.com/\ndns:a,b.example.com\n";
    let surt = run(&["-g", "surt"], input.as_bytes()).ok();
    assert_eq!(
        surt.out(),
        "com,example,a,b)/\ncom,example,a,b)/\ncom,example,a,b)\n"
    );
    let reversed = run(&["-g", "reversed_host"], input.as_bytes()).ok();
    assert_eq!(reversed.out(), "com,example,a,b\ncom,example,a,b\n\n");
    let ssurt = run(&["-g", "ssurt"], input.as_bytes()).ok();
    assert_eq!(
        ssurt.out().lines().take(2).collect::<Vec<_>>(),
        ["com,example,a.b,//http:/", "com,example,a,b,//http:/"]
    );
    let json = run(&["--json"], input.as_bytes()).ok();
    let first: serde_json::Value =
        serde_json::from_str(json.out().lines().next().unwrap()).unwrap();
    assert_eq!(first["surt"], "com,example,a,b)/");
    assert_eq!(first["url_surtkey"], "com,example,a,b)/");
    assert_eq!(first["reversed_host"], "com,example,a,b");
    assert_eq!(first["ssurt"], "com,example,a.b,//http:/");
}
