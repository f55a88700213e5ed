//! IPv4 and IPv6 address parsing and serialization.

use crate::error::ParseError;

/// The [ends in a number checker](https://url.spec.whatwg.org/#ends-in-a-number-checker):
/// whether the last label (ignoring one trailing empty label) is all ASCII
/// digits or `0x` followed by hex digits.
pub fn ends_in_a_number(input: &[u8]) -> bool {
    let trimmed = match input.strip_suffix(b".") {
        Some(rest) if !rest.is_empty() || input.len() == 1 => rest,
        _ => input,
    };
    // Hosts are short: a plain reverse loop beats memrchr's setup.
    let last = &trimmed[trimmed
        .iter()
        .rposition(|&b| b == b'.')
        .map_or(0, |i| i + 1)..];
    if !last.is_empty() && last.iter().all(u8::is_ascii_digit) {
        return true;
    }
    // "If parsing last as an IPv4 number does not return failure": the only
    // other way is 0x / 0X followed by hex digits.
    matches!(last, [b'0', b'x' | b'X', rest @ ..] if rest.iter().all(u8::is_ascii_hexdigit))
}

/// Result of the [IPv4 number parser](https://url.spec.whatwg.org/#ipv4-number-parser).
/// Values that do not fit in 32 bits saturate at `u64::MAX`-ish, which every
/// caller rejects as out of range.
fn parse_ipv4_number(mut input: &[u8]) -> Option<u64> {
    if input.is_empty() {
        return None;
    }
    let mut radix = 10;
    if input.len() >= 2 && input[0] == b'0' && matches!(input[1], b'x' | b'X') {
        input = &input[2..];
        radix = 16;
    } else if input.len() >= 2 && input[0] == b'0' {
        input = &input[1..];
        radix = 8;
    }
    let mut value: u64 = 0;
    for &b in input {
        let digit = (b as char).to_digit(radix)? as u64;
        // Saturate instead of overflowing: anything above 2^32 fails later.
        value = value
            .saturating_mul(radix as u64)
            .saturating_add(digit)
            .min(1 << 40);
    }
    Some(value)
}

/// The [IPv4 parser](https://url.spec.whatwg.org/#concept-ipv4-parser).
pub fn parse_ipv4(input: &[u8]) -> Result<u32, ParseError> {
    let mut parts: [&[u8]; 5] = [&[]; 5];
    let mut count = 0;
    for part in input.split(|&b| b == b'.') {
        if count == 5 {
            return Err(ParseError::InvalidIpv4Address);
        }
        parts[count] = part;
        count += 1;
    }
    // "If the last item in parts is the empty string ... remove it" (when
    // there is more than one part).
    if count > 1 && parts[count - 1].is_empty() {
        count -= 1;
    }
    if count > 4 {
        return Err(ParseError::InvalidIpv4Address);
    }
    let mut numbers = [0u64; 4];
    for i in 0..count {
        numbers[i] = parse_ipv4_number(parts[i]).ok_or(ParseError::InvalidIpv4Address)?;
    }
    if numbers[..count - 1].iter().any(|&n| n > 255) {
        return Err(ParseError::InvalidIpv4Address);
    }
    let last = numbers[count - 1];
    if last >= 256u64.pow(5 - count as u32) {
        return Err(ParseError::InvalidIpv4Address);
    }
    let mut ipv4 = last;
    for (i, &n) in numbers[..count - 1].iter().enumerate() {
        ipv4 += n << (8 * (3 - i));
    }
    Ok(ipv4 as u32)
}

/// The [IPv4 serializer](https://url.spec.whatwg.org/#concept-ipv4-serializer).
pub fn serialize_ipv4(address: u32, out: &mut Vec<u8>) {
    for (i, byte) in address.to_be_bytes().iter().enumerate() {
        if i > 0 {
            out.push(b'.');
        }
        push_decimal(*byte as u32, out);
    }
}

/// Appends the decimal digits of `n`.
pub fn push_decimal(n: u32, out: &mut Vec<u8>) {
    let mut buf = [0u8; 10];
    let mut i = buf.len();
    let mut n = n;
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&buf[i..]);
}

/// The [IPv6 parser](https://url.spec.whatwg.org/#concept-ipv6-parser),
/// on the text between the brackets.
pub fn parse_ipv6(input: &[u8]) -> Result<[u16; 8], ParseError> {
    const ERR: ParseError = ParseError::InvalidIpv6Address;
    let mut address = [0u16; 8];
    let mut piece_index = 0usize;
    let mut compress: Option<usize> = None;
    let mut p = 0usize;
    let len = input.len();
    let at = |i: usize| input.get(i).copied();

    if at(p) == Some(b':') {
        if at(p + 1) != Some(b':') {
            return Err(ERR);
        }
        p += 2;
        piece_index += 1;
        compress = Some(piece_index);
    }
    while p < len {
        if piece_index == 8 {
            return Err(ERR);
        }
        if input[p] == b':' {
            if compress.is_some() {
                return Err(ERR);
            }
            p += 1;
            piece_index += 1;
            compress = Some(piece_index);
            continue;
        }
        let mut value: u16 = 0;
        let mut length = 0;
        while length < 4 {
            match at(p).and_then(super::percent::hex_value) {
                Some(d) => {
                    value = value * 0x10 + d as u16;
                    p += 1;
                    length += 1;
                }
                None => break,
            }
        }
        if at(p) == Some(b'.') {
            // An IPv4 address in the last two pieces (the IPv6 parser's
            // step 6.5): it ends the address.
            if length == 0 {
                return Err(ERR);
            }
            piece_index = parse_ipv4_in_ipv6(input, p - length, &mut address, piece_index)?;
            break;
        } else if at(p) == Some(b':') {
            p += 1;
            if p == len {
                return Err(ERR);
            }
        } else if p < len {
            return Err(ERR);
        }
        address[piece_index] = value;
        piece_index += 1;
    }
    match compress {
        Some(compress) => move_compressed_pieces(&mut address, compress, piece_index),
        None if piece_index != 8 => return Err(ERR),
        None => {}
    }
    Ok(address)
}

/// The IPv6 parser's step 6.5: the dotted IPv4 address that begins at
/// `p` fills `address` from `piece_index` on, to the end of the input.
/// Returns the piece index after it.
fn parse_ipv4_in_ipv6(
    input: &[u8],
    mut p: usize,
    address: &mut [u16; 8],
    mut piece_index: usize,
) -> Result<usize, ParseError> {
    const ERR: ParseError = ParseError::InvalidIpv6Address;
    let at = |i: usize| input.get(i).copied();
    if piece_index > 6 {
        return Err(ERR);
    }
    let mut numbers_seen = 0;
    while p < input.len() {
        let mut ipv4_piece: Option<u16> = None;
        if numbers_seen > 0 {
            if input[p] == b'.' && numbers_seen < 4 {
                p += 1;
            } else {
                return Err(ERR);
            }
        }
        if !at(p).is_some_and(|b| b.is_ascii_digit()) {
            return Err(ERR);
        }
        while let Some(b) = at(p).filter(u8::is_ascii_digit) {
            let number = (b - b'0') as u16;
            ipv4_piece = match ipv4_piece {
                None => Some(number),
                Some(0) => return Err(ERR),
                Some(v) => Some(v * 10 + number),
            };
            if ipv4_piece > Some(255) {
                return Err(ERR);
            }
            p += 1;
        }
        address[piece_index] = address[piece_index] * 0x100 + ipv4_piece.unwrap_or(0);
        numbers_seen += 1;
        if numbers_seen == 2 || numbers_seen == 4 {
            piece_index += 1;
        }
    }
    if numbers_seen != 4 {
        return Err(ERR);
    }
    Ok(piece_index)
}

/// The IPv6 parser's step 7: the pieces after the `::` at `compress`
/// move to the end of the address, zeros taking their place.
fn move_compressed_pieces(address: &mut [u16; 8], compress: usize, pieces: usize) {
    let mut swaps = pieces - compress;
    let mut piece_index = 7;
    while piece_index != 0 && swaps > 0 {
        address.swap(piece_index, compress + swaps - 1);
        piece_index -= 1;
        swaps -= 1;
    }
}

/// The [IPv6 serializer](https://url.spec.whatwg.org/#concept-ipv6-serializer),
/// without the brackets: the first longest run of two or more zero pieces
/// becomes `::`, hex digits are lowercase.
pub fn serialize_ipv6(address: &[u16; 8], out: &mut Vec<u8>) {
    // Find the first longest sequence of zero pieces of length > 1.
    let mut compress: Option<usize> = None;
    let mut best_len = 1;
    let mut i = 0;
    while i < 8 {
        if address[i] == 0 {
            let start = i;
            while i < 8 && address[i] == 0 {
                i += 1;
            }
            if i - start > best_len {
                best_len = i - start;
                compress = Some(start);
            }
        } else {
            i += 1;
        }
    }
    let mut ignore0 = false;
    for (i, &piece) in address.iter().enumerate() {
        if ignore0 && piece == 0 {
            continue;
        }
        ignore0 = false;
        if compress == Some(i) {
            out.extend_from_slice(if i == 0 { b"::" } else { b":" });
            ignore0 = true;
            continue;
        }
        push_hex(piece, out);
        if i != 7 {
            out.push(b':');
        }
    }
}

fn push_hex(n: u16, out: &mut Vec<u8>) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut started = false;
    for shift in [12, 8, 4, 0] {
        let d = (n >> shift) & 15;
        if d != 0 || started || shift == 0 {
            out.push(HEX[d as usize]);
            started = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v4(s: &str) -> Result<String, ParseError> {
        let mut out = Vec::new();
        serialize_ipv4(parse_ipv4(s.as_bytes())?, &mut out);
        Ok(String::from_utf8(out).unwrap())
    }

    fn v6(s: &str) -> Result<String, ParseError> {
        let mut out = Vec::new();
        serialize_ipv6(&parse_ipv6(s.as_bytes())?, &mut out);
        Ok(String::from_utf8(out).unwrap())
    }

    #[test]
    fn ipv4_forms() {
        assert_eq!(v4("192.168.0.1").unwrap(), "192.168.0.1");
        assert_eq!(v4("0xc0.0250.0.1").unwrap(), "192.168.0.1");
        assert_eq!(v4("3232235521").unwrap(), "192.168.0.1");
        assert_eq!(v4("192.168.1").unwrap(), "192.168.0.1");
        assert_eq!(v4("1.2.3.4.").unwrap(), "1.2.3.4");
        assert_eq!(v4("0x").unwrap(), "0.0.0.0");
        assert_eq!(v4("4294967295").unwrap(), "255.255.255.255");
        assert!(v4("4294967296").is_err());
        assert!(v4("1.2.3.256").is_err());
        assert!(v4("256.1.1").is_err());
        assert!(v4("1.2.3.4.5").is_err());
        assert!(v4("09").is_err());
        assert!(v4("1..2").is_err());
        assert!(v4("0xffffffffffffffffffffffffffffffff").is_err());
    }

    #[test]
    fn ends_in_number() {
        assert!(ends_in_a_number(b"1.2.3.4"));
        assert!(ends_in_a_number(b"foo.09"));
        assert!(ends_in_a_number(b"foo.0x"));
        assert!(ends_in_a_number(b"foo.0xAb."));
        assert!(!ends_in_a_number(b"foo.0xg"));
        assert!(!ends_in_a_number(b"example.com"));
        assert!(!ends_in_a_number(b"1.2.3.4.."));
        assert!(!ends_in_a_number(b"."));
    }

    #[test]
    fn ipv6_forms() {
        assert_eq!(v6("::").unwrap(), "::");
        assert_eq!(v6("::1").unwrap(), "::1");
        assert_eq!(v6("1::").unwrap(), "1::");
        assert_eq!(v6("0:0:0:0:0:0:0:1").unwrap(), "::1");
        assert_eq!(v6("1:0:0:2:0:0:0:3").unwrap(), "1:0:0:2::3");
        assert_eq!(v6("1:0:0:2:0:0:3:4").unwrap(), "1::2:0:0:3:4");
        assert_eq!(v6("1:2:3:4:5:6:7:0").unwrap(), "1:2:3:4:5:6:7:0");
        assert_eq!(v6("::ffff:192.168.0.1").unwrap(), "::ffff:c0a8:1");
        assert_eq!(v6("ABCD::").unwrap(), "abcd::");
        assert!(v6(":1").is_err());
        assert!(v6("1:").is_err());
        assert!(v6("1::2::3").is_err());
        assert!(v6("1:2:3:4:5:6:7:8:9").is_err());
        assert!(v6("1:2:3:4:5:6:7").is_err());
        assert!(v6("::1.2.3").is_err());
        assert!(v6("::1.2.3.04").is_err());
        assert!(v6("::1.2.3.4.5").is_err());
        assert!(v6("12345::").is_err());
        assert!(v6("").is_err());
    }
}
