//! Standard base64 (RFC 4648 §4: `A–Z a–z 0–9 + /`, `=` padding) for the
//! image data of responses in JSON.
//!
//! Written here rather than taken from the base64 crate
//! (docs/DECISIONS.md D67): the core's `no_std` build stays on serde,
//! serde_json, similar, blake3 and hashbrown, and images cross JSON in
//! one fixed form. It accepts exactly what the crate's `STANDARD` engine
//! accepted (padding required, no whitespace, unused bits of the last
//! character zero) and encodes as it did; the tests check both against
//! the crate.

use crate::prelude::*;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Each byte's 6-bit value, or `INVALID`.
const INVALID: u8 = 0xFF;
const VALUES: [u8; 256] = {
    let mut t = [INVALID; 256];
    let mut i = 0;
    while i < 64 {
        t[ALPHABET[i] as usize] = i as u8;
        i += 1;
    }
    t
};

/// `bytes` in padded standard base64.
pub(crate) fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * k)) as usize & 63] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The bytes `text` encodes, or what is wrong with it (one sentence).
pub(crate) fn decode(text: &str) -> Result<Vec<u8>, String> {
    let s = text.as_bytes();
    if s.len() % 4 != 0 {
        return Err(format!(
            "its length, {}, is not a multiple of 4 (padded base64 comes in groups of 4 characters)",
            s.len()
        ));
    }
    let mut out = Vec::with_capacity(s.len() / 4 * 3);
    let groups = s.len() / 4;
    for (g, quad) in s.chunks_exact(4).enumerate() {
        let last = g + 1 == groups;
        // `=` only ends the last group: `xx==` or `xxx=`.
        let pad = if last {
            quad.iter().rev().take_while(|&&c| c == b'=').count()
        } else {
            0
        };
        if pad > 2 {
            return Err(bad(text, g * 4 + 4 - pad));
        }
        let mut n = 0u32;
        for (k, &c) in quad[..4 - pad].iter().enumerate() {
            let v = VALUES[usize::from(c)];
            if v == INVALID {
                return Err(bad(text, g * 4 + k));
            }
            n |= u32::from(v) << (18 - 6 * k);
        }
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        let keep = 3 - pad;
        // The last character's bits past the data must be zero, so each
        // byte string has one encoding.
        if n & ((1 << (8 * pad)) - 1) != 0 {
            return Err(format!(
                "the character at offset {} has bits set past the end of the data (not canonical base64)",
                g * 4 + 3 - pad
            ));
        }
        out.extend_from_slice(&bytes[..keep]);
    }
    Ok(out)
}

fn bad(text: &str, offset: usize) -> String {
    let c = text[offset..].chars().next().unwrap_or('?');
    format!(
        "{c:?} at offset {offset} is not a base64 character (A-Z, a-z, 0-9, +, / and = padding at the end)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine as _;
    use base64::engine::general_purpose::STANDARD;

    fn next(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    /// Encoding: the same text as the base64 crate, for every length up
    /// to 300; decoding gives the bytes back.
    #[test]
    fn encodes_as_the_crate_did() {
        let mut state = 3;
        for len in 0..300 {
            let bytes: Vec<u8> = (0..len).map(|_| next(&mut state) as u8).collect();
            let ours = encode(&bytes);
            assert_eq!(ours, STANDARD.encode(&bytes), "len {len}");
            assert_eq!(decode(&ours).unwrap(), bytes, "len {len}");
        }
    }

    /// Decoding: on random texts over the alphabet with padding, spaces,
    /// newlines and other bytes, ours accepts exactly what the crate
    /// accepted, with the same bytes.
    #[test]
    fn decodes_as_the_crate_did() {
        let alphabet: Vec<char> =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/====  \n-_.é"
                .chars()
                .collect();
        let mut state = 11;
        let mut accepted = 0;
        for case in 0..200_000 {
            let len = (next(&mut state) % 14) as usize;
            let mut text: String = (0..len)
                .map(|_| alphabet[(next(&mut state) % alphabet.len() as u64) as usize])
                .collect();
            // Mostly valid texts, so the accepting paths are covered too.
            if case % 2 == 0 {
                let bytes: Vec<u8> = (0..len).map(|_| next(&mut state) as u8).collect();
                text = STANDARD.encode(&bytes);
                if case % 4 == 0 && !text.is_empty() {
                    // Flip the last data character to its neighbour.
                    let at = text.trim_end_matches('=').len() - 1;
                    let c = text.as_bytes()[at];
                    let i = ALPHABET.iter().position(|&a| a == c).unwrap();
                    let mut b = text.into_bytes();
                    b[at] = ALPHABET[(i + 1) % 64];
                    text = String::from_utf8(b).unwrap();
                }
            }
            let theirs = STANDARD.decode(text.as_bytes()).ok();
            let ours = decode(&text).ok();
            assert_eq!(ours, theirs, "{text:?}");
            accepted += usize::from(ours.is_some());
        }
        assert!(accepted > 50_000, "only {accepted} texts were valid");
    }

    #[test]
    fn errors_say_what_is_wrong() {
        assert!(decode("abc").unwrap_err().contains("not a multiple of 4"));
        assert!(decode("ab!d").unwrap_err().contains("'!' at offset 2"));
        assert!(decode("a===").unwrap_err().contains("offset 1"));
        assert!(decode("ab==abcd").unwrap_err().contains("'=' at offset 2"));
        assert!(decode("QR==").unwrap_err().contains("not canonical"));
        assert_eq!(decode("QQ==").unwrap(), b"A");
    }
}
