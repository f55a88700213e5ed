// The reference of tests/cli_edit.rs's differential test of `--set` and
// `--set-param`: Node's WHATWG `URL` and its setters.
//
// Usage: node scripts/url-setters.mjs EDIT... < urls
// Each EDIT is `set:PROPERTY=VALUE` (a URL property setter: protocol,
// username, password, host, hostname, port, pathname, search, hash) or
// `param:NAME=VALUE` (url.searchParams.set). For each input line writes
// `HREF<TAB>EDITED`: the URL as parsed, then with the edits applied in
// order; an empty line for a line that is no URL.
import fs from 'node:fs';

const edits = process.argv.slice(2).map((arg) => {
  const colon = arg.indexOf(':');
  const kind = arg.slice(0, colon);
  const spec = arg.slice(colon + 1);
  const eq = spec.indexOf('=');
  return { kind, name: spec.slice(0, eq), value: spec.slice(eq + 1) };
});
const input = fs.readFileSync(0, 'utf8');
const lines = input.split('\n');
if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
const out = [];
for (const line of lines) {
  let url;
  try {
    url = new URL(line);
  } catch {
    out.push('');
    continue;
  }
  const before = url.href;
  for (const e of edits) {
    if (e.kind === 'set') url[e.name] = e.value;
    else if (e.kind === 'param') url.searchParams.set(e.name, e.value);
    else throw new Error(`unknown edit ${e.kind}`);
  }
  out.push(`${before}\t${url.href}`);
}
out.push('');
fs.writeFileSync(1, out.join('\n'));
