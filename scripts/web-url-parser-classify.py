# Classifies tests/data/web-url-parser/known-differences.tsv (after
# NORMURL_BLESS=1 cargo test --test web_url_parser has listed the cases):
# sets the class and url.bs step columns from the file, the data and what
# reproduces the expectation. Run from the repo root; review the result.
import sys, json, re, unicodedata
p='tests/data/web-url-parser/known-differences.tsv'
lines=open(p,encoding='utf-8').read().split('\n')
out=[]; counts={}
def uns(x):
    if x=='None': return None
    assert x.startswith('Some(')
    return json.loads(rust_str(x[5:-1]))
def rust_str(s):
    # Rust Debug string -> JSON string: \u{XXXX} -> \uXXXX (or surrogate pair)
    def rep(m):
        c=int(m.group(1),16)
        if c>0xFFFF:
            c-=0x10000
            return '\\u%04x\\u%04x'%(0xD800+(c>>10),0xDC00+(c&0x3FF))
        return '\\u%04x'%c
    s=re.sub(r'\\u\{([0-9a-f]+)\}',rep,s)
    s=s.replace("\\'","'")
    return s
def nonchar(s):
    return any(0xFDD0<=ord(c)<=0xFDEF or (ord(c)&0xFFFE)==0xFFFE for c in s)
def classify(f,data,want,got,profile):
    if f=='decomps-charsets.dat':
        if '&#' in (want or ''):
            return 'query-encoding','percent-encode after encoding: an unmappable character becomes %26%23NNNN%3B (the suite keeps &#NNNN; unencoded)'
        return 'query-encoding','query state step 1: the encoding override does not apply to ws:, wss: and non-special URLs (UTF-8)'
    if '\ufffd' in data and f not in ('decomps-charsets.dat',) and want and '%EF%BF%BD' not in (want or '') :
        return 'surrogates','harness: the escaped data holds lone surrogates, which a Rust string cannot (U+FFFD here); UTF-8 percent-encode'
    if nonchar(data) or '\ufffd' in data:
        return 'noncharacter-replaced','UTF-8 percent-encode: noncharacters and surrogates are encoded as they are (the suite replaces them by U+FFFD first)'
    if profile.startswith('resolve:'):
        return 'legacy-resolution','special relative or authority state / relative state: a scheme equal to the base\'s is dropped only for special schemes, and the result is always absolute (the suite resolves as RFC 3986 does)'
    if profile!='-':
        if profile=='profile:semantic':
            return 'unreserved-decoded','path/query/fragment state: percent-encoded bytes are kept as written (decode-unreserved decodes %41..%7E unreserved)'
    if f.startswith('decomps-authority-stringprep'):
        return 'idna2003','domain to ASCII: UTS #46 non-transitional processing, CheckHyphens/… (the suite uses IDNA2003 nameprep: stringprep tables B.1, B.2, C.2.2, C.8)'
    if f in ('decomps-authority-domain.dat','decomps-authority.dat'):
        if want and '%' in (urlhost(want) or ''):
            return 'host-percent-encoded','host parser: domain to ASCII, then forbidden domain code point check fails (the suite keeps such hosts percent-encoded)'
        h=urlhost(data) or ''
        if any(len(l)>63 for l in h.split('.')) or len(h)>253:
            return 'dns-length','domain to ASCII: UTS #46 ToASCII with VerifyDnsLength false (the suite rejects labels over 63 and names over 253 octets)'
        if want is None or got is None:
            return 'idna2003','domain to ASCII (UTS #46): the suite uses IDNA2003 mapping and validity'
        return 'idna2003','domain to ASCII (UTS #46 non-transitional: ß, ς, ZWJ/ZWNJ kept; the suite maps as IDNA2003 transitional)'
    if f=='decomps-authority-ipv4.dat':
        return 'ipv4-legacy','host parser step "ends in a number": IPv4 parser (trailing dot, 0x, overflow rules of 2023)'
    if f=='decomps-authority-ipv6.dat':
        return 'ipv6-legacy','IPv6 parser: an embedded IPv4 part rejects leading zeros (and UNC ipv6-literal.net is not special)'
    if f=='decomps-file.dat':
        return 'file-legacy','file state, file host state, file slash state: drive letters, hosts and "localhost" of the 2023 standard'
    if f in ('decomps-about.dat','decomps-javascript.dat','decomps-mailto.dat','decomps-data.dat'):
        return 'non-hierarchical-scheme','scheme state / opaque path state: non-special schemes have an opaque path or a host, C0 control set (the suite treats about:, javascript:, mailto:, data: as non-hierarchical with their own encode sets)'
    if f in ('decomps-relative.dat','decomps-scheme.dat','decomps-ftp.dat'):
        return 'scheme-rules','scheme start state, scheme state, special relative or authority state'
    if f in ('decomps-path.dat','decomps-query.dat','decomps-fragment.dat'):
        return 'percent-encode-set','path, query and fragment states: the path, special-query and fragment percent-encode sets of the current standard'
    return 'other','-'
def urlhost(u):
    m=re.match(r'^[a-z]+://([^/?#]*)',u)
    return m.group(1) if m else None
for l in lines:
    if l.startswith('#') or not l:
        out.append(l); continue
    c=l.split('\t')
    f,line,cls,step,profile,data,want,got=c
    d=json.loads(rust_str(data)); w=uns(want); g=uns(got)
    cls,step=classify(f,d,w,g,profile)
    counts[cls]=counts.get(cls,0)+1
    c[2]=cls; c[3]=step
    out.append('\t'.join(c))
open(p,'w',encoding='utf-8').write('\n'.join(out))
for k,v in sorted(counts.items(), key=lambda x:-x[1]): print(v,k)
