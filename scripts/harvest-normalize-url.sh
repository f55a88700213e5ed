#!/bin/sh
# Regenerates tests/data/canon/normalize-url/cases.json: runs normalize-url's
# own test.js (v8.0.2, from its git repository) against the npm package and
# records every `t.is(normalizeUrl(...), expected)` call with what the
# package returned. Needs node >= 18, npm, git and the network.
set -eu
out=$(cd "$(dirname "$0")/.." && pwd)/tests/data/canon/normalize-url/cases.json
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
git clone -q --depth 1 --branch v8.0.2 https://github.com/sindresorhus/normalize-url.git repo
printf '{"name":"harvest","type":"module","private":true}\n' > package.json
npm install --silent normalize-url@8.0.2
cp node_modules/normalize-url/index.js index.js
cp repo/test.js test.js
mkdir -p node_modules/ava
printf '{"name":"ava","type":"module","main":"index.js"}\n' > node_modules/ava/package.json
cat > node_modules/ava/index.js <<'JS'
// Stands in for ava: records each t.is whose actual value is a recorded call.
export const cases = [];
let current = '';
const t = {
  is(actual, expected) {
    if (actual && actual.__call) {
      cases.push({test: current, input: actual.input, options: actual.options, output: actual.output, expected});
    }
  },
  throws() {}, true() {}, false() {}, deepEqual() {}, notThrows() {},
};
export default function test(name, fn) { current = name; fn(t); }
JS
cat > harvest.mjs <<'JS'
import fs from 'node:fs';
import normalizeUrl from './index.js';
globalThis.__call = (input, options) => {
  let output;
  try { output = normalizeUrl(input, options); } catch (e) { output = {error: String(e)}; }
  return {__call: true, input, options: options ?? null, output};
};
const src = fs.readFileSync('test.js', 'utf8').replaceAll('t.is(normalizeUrl(', 't.is(globalThis.__call(');
fs.writeFileSync('test2.mjs', src);
const ava = await import('ava');
await import('./test2.mjs');
console.log(JSON.stringify(ava.cases, null, 1));
JS
node harvest.mjs > "$out"
echo "wrote $out"
