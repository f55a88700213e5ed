use super::*;

fn norm(s: &str) -> String {
    Reference::parse(s).unwrap().normalize().to_string()
}

#[test]
fn dots_count_percent_encoded_dots() {
    use super::parse::dots;
    for (seg, n) in [
        (".", 1),
        ("%2E", 1),
        ("..", 2),
        (".%2e", 2),
        ("%2e.", 2),
        ("%2E%2e", 2),
        ("...", 0),
        ("a", 0),
        ("%2", 0),
    ] {
        assert_eq!(dots(seg), n, "{seg}");
    }
}

#[test]
fn relative_references_normalize() {
    assert_eq!(norm("a/../../b"), "../b");
    assert_eq!(norm("./a/./b"), "a/b");
    // The order stays dir: the path does not become a bare file.
    assert_eq!(norm("%2e/a"), "./a");
    assert_eq!(norm("%2e/a/b"), "a/b");
    assert_eq!(norm(".."), "../");
    assert_eq!(norm(""), "");
    assert_eq!(norm("#f"), "#f");
    assert_eq!(norm("//h/a/../.."), "//h/");
}

#[test]
fn printing_guards_scheme_like_and_empty_first_segments() {
    let r = Reference::parse("a/b").unwrap();
    let mut odd = r.clone();
    odd.dirs[0] = "x:y".to_owned();
    assert_eq!(odd.to_string(), "x%3Ay/b");
    odd.dirs[0] = String::new();
    assert_eq!(odd.to_string(), ".//b");
}
