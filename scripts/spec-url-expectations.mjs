// Regenerates tests/data/spec-url/ from the spec-url npm package (alwinb's
// reference implementation of the URL Specification), for tests/reference.rs.
//
//   cd "$(mktemp -d)" && npm pack spec-url@2.3.3-dev && tar xzf spec-url-*.tgz
//   node scripts/spec-url-expectations.mjs "$PWD/package"   # from the repo root
//
// Writes:
// - testdata.js, LICENSE: the package's test/testdata.js and licence, verbatim;
// - testdata.json: the same cases as a JSON array (testdata.js is an ES
//   module), led by a string naming the source, as WPT's files are;
// - wpt-resolve.json: for every case of tests/data/wpt/urltestdata.json with
//   a base, what spec-url's genericResolve and legacyResolve give (parsed in
//   the base's mode, normalised, WHATWG-percent-encoded, printed; "failure"
//   when spec-url throws), and whether spec-url's own WHATWG parse-resolve
//   agrees with WPT (where it does not, its host or parsing differs from the
//   current standard and its generic/legacy answer is not a fair expectation).
import { copyFileSync, readFileSync, writeFileSync } from 'fs'
import { join } from 'path'
import { pathToFileURL } from 'url'

const pkg = process.argv[2]
if (!pkg) { console.error('usage: node scripts/spec-url-expectations.mjs PACKAGE_DIR'); process.exit(2) }
const out = 'tests/data/spec-url'
const spec = await import(pathToFileURL(join(pkg, 'src/index.js')))
const version = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).version
const testdata = (await import(pathToFileURL(join(pkg, 'test/testdata.js')))).default

copyFileSync(join(pkg, 'test/testdata.js'), join(out, 'testdata.js'))
copyFileSync(join(pkg, 'LICENSE'), join(out, 'LICENSE'))
writeFileSync(join(out, 'testdata.json'),
  JSON.stringify([`spec-url ${version} test/testdata.js`, ...testdata.filter(t => t && typeof t === 'object')], null, 1) + '\n')

const attempt = f => { try { return f() } catch (e) { return 'failure' } }
const resolveWith = (resolve, input, base) => attempt(() => {
  const b = spec.parse(base)
  const u = spec.parse(input, spec.modeFor(b))
  return spec.print(spec.percentEncode(spec.normalise(resolve(u, b)), 'WHATWG'))
})

const wpt = JSON.parse(readFileSync('tests/data/wpt/urltestdata.json', 'utf8'))
const cases = []
for (const t of wpt) {
  if (typeof t !== 'object' || t.base == null) continue
  const whatwg = attempt(() => spec.print(spec.parseResolve(t.input, t.base)))
  const expected = t.failure ? 'failure' : t.href
  cases.push({
    input: t.input,
    base: t.base,
    generic: resolveWith(spec.genericResolve, t.input, t.base),
    legacy: resolveWith(spec.legacyResolve, t.input, t.base),
    whatwg_agrees: whatwg === expected,
  })
}
writeFileSync(join(out, 'wpt-resolve.json'),
  JSON.stringify([`spec-url ${version} genericResolve/legacyResolve on wpt urltestdata.json`, ...cases], null, 1) + '\n')
console.log(`${cases.length} WPT cases with a base; spec-url's WHATWG answer agrees with WPT on ${cases.filter(c => c.whatwg_agrees).length}`)
