//! Host names without a C library: a dotted IPv4 address is used as it is; a name
//! is looked up in `/etc/hosts` (IPv4 entries; IPv6 ones are skipped) and, if the
//! file is missing or lacks it, `localhost` is 127.0.0.1. There is no DNS: a LAN
//! tournament names its server in the hosts file, and a resolver would add a UDP
//! client, `/etc/resolv.conf` parsing and more system calls to a binary whose point
//! is to need little.

use crate::sys;

/// The hosts file.
const HOSTS: &core::ffi::CStr = c"/etc/hosts";

/// Longest hosts-file line looked at; longer lines are skipped.
const MAX_LINE: usize = 256;

/// At most this much of the hosts file is read (a file larger than any real one).
const MAX_FILE: usize = 1 << 20;

/// The IPv4 address of `host`, or `None` if it cannot be resolved.
pub fn resolve(host: &[u8]) -> Option<[u8; 4]> {
    if let Some(ip) = parse_ipv4(host) {
        return Some(ip);
    }
    if host.is_empty() {
        return None;
    }
    if let Some(ip) = lookup_file(host) {
        return Some(ip);
    }
    same_name(host, b"localhost").then_some([127, 0, 0, 1])
}

/// A dotted-quad IPv4 address (`a.b.c.d`, each 0..=255).
pub fn parse_ipv4(text: &[u8]) -> Option<[u8; 4]> {
    let mut ip = [0u8; 4];
    let mut parts = text.split(|&b| b == b'.');
    for octet in ip.iter_mut() {
        let part = parts.next()?;
        if part.is_empty() || part.len() > 3 || !part.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let n = part.iter().fold(0u32, |n, &d| n * 10 + u32::from(d - b'0'));
        *octet = u8::try_from(n).ok()?;
    }
    parts.next().is_none().then_some(ip)
}

/// `host` in the hosts file, read line by line through a small buffer.
fn lookup_file(host: &[u8]) -> Option<[u8; 4]> {
    let fd = sys::open_read(HOSTS).ok()?;
    let mut chunk = [0u8; 512];
    let mut line = [0u8; MAX_LINE];
    let (mut len, mut too_long, mut total) = (0usize, false, 0usize);
    let mut found = None;
    'read: while total < MAX_FILE {
        let n = match sys::read(fd, &mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        total += n;
        for &b in chunk.get(..n).unwrap_or(&[]) {
            if b == b'\n' {
                if !too_long {
                    found = match_line(line.get(..len).unwrap_or(&[]), host);
                    if found.is_some() {
                        break 'read;
                    }
                }
                (len, too_long) = (0, false);
            } else if let Some(slot) = line.get_mut(len) {
                *slot = b;
                len += 1;
            } else {
                too_long = true;
            }
        }
    }
    if found.is_none() && !too_long {
        // A last line without a newline.
        found = match_line(line.get(..len).unwrap_or(&[]), host);
    }
    sys::close(fd);
    found
}

/// Whether two host names are the same, without regard to ASCII case: a plain
/// loop over the bytes (the slices' `eq_ignore_ascii_case` compiles to about 300
/// bytes here).
fn same_name(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.eq_ignore_ascii_case(y))
}

/// The address of a hosts line (`ADDRESS NAME [ALIAS...] [# comment]`) if one of
/// its names is `host` (names compare without regard to case).
fn match_line(line: &[u8], host: &[u8]) -> Option<[u8; 4]> {
    let line = line.split(|&b| b == b'#').next()?;
    let mut ip = None;
    for word in line.split(|&b| b == b' ' || b == b'\t') {
        if word.is_empty() {
            continue;
        }
        match ip {
            None => ip = Some(parse_ipv4(word)?),
            Some(addr) if same_name(word, host) => return Some(addr),
            Some(_) => {}
        }
    }
    None
}
