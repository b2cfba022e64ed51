//! Which bot made a connection: the schedule says who sits where, so a hello that
//! asks for the other seat must be charged to the bot that sent it, not to the one
//! whose seat it asked for. TCP carries no sender, but Linux tells: the client end
//! of an accepted loopback connection is a line of `/proc/thread-self/net/tcp`
//! (the calling thread's network namespace) with its socket's inode, and the bot
//! that holds that socket has it among the fds of a process in its group.

use std::fs;
use std::net::{SocketAddr, TcpStream};

/// The socket inode of the client end of `stream` (an accepted IPv4 connection).
pub fn client_inode(stream: &TcpStream) -> Option<u64> {
    let (SocketAddr::V4(peer), SocketAddr::V4(local)) =
        (stream.peer_addr().ok()?, stream.local_addr().ok()?)
    else {
        return None;
    };
    // /proc/net/tcp writes an IPv4 address as the u32 in host order, in hex.
    let hex = |a: std::net::SocketAddrV4| {
        format!(
            "{:08X}:{:04X}",
            u32::from_ne_bytes(a.ip().octets()),
            a.port()
        )
    };
    let (want_local, want_remote) = (hex(peer), hex(local));
    let table = fs::read_to_string("/proc/thread-self/net/tcp").ok()?;
    table.lines().skip(1).find_map(|line| {
        let f: Vec<&str> = line.split_whitespace().collect();
        (f.get(1) == Some(&want_local.as_str()) && f.get(2) == Some(&want_remote.as_str()))
            .then(|| f.get(9)?.parse().ok())
            .flatten()
    })
}

/// Bytes that reached the socket `inode` and its program has not read yet (its
/// receive queue in `/proc/thread-self/net/tcp`); `None` if it is not listed.
pub fn unread(inode: u64) -> Option<u64> {
    let table = fs::read_to_string("/proc/thread-self/net/tcp").ok()?;
    let want = inode.to_string();
    table.lines().skip(1).find_map(|line| {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.get(9) != Some(&want.as_str()) {
            return None;
        }
        let (_, rx) = f.get(4)?.split_once(':')?;
        u64::from_str_radix(rx, 16).ok()
    })
}

/// Whether process `pid` has the socket `inode` open.
fn holds(pid: u32, inode: u64) -> bool {
    let want = format!("socket:[{inode}]");
    let Ok(fds) = fs::read_dir(format!("/proc/{pid}/fd")) else {
        return false;
    };
    fds.flatten()
        .any(|fd| fs::read_link(fd.path()).is_ok_and(|l| l.as_os_str() == want.as_str()))
}

/// The processes of group `pgid` (the leader first).
fn group_members(pgid: u32) -> Vec<u32> {
    let mut pids = vec![pgid];
    let Ok(procs) = fs::read_dir("/proc") else {
        return pids;
    };
    for p in procs.flatten() {
        let Some(pid) = p.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        if pid == pgid {
            continue;
        }
        // The fifth field of stat, after the parenthesised command (which may hold
        // spaces), is the process group.
        let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        let group = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(2)?.parse::<u32>().ok());
        if group == Some(pgid) {
            pids.push(pid);
        }
    }
    pids
}

/// The index in `groups` (each bot's process group, by seat) of the bot whose
/// process holds the client socket `inode` ([`client_inode`]), if it can be told.
pub fn owner(inode: u64, groups: &[Option<u32>; 2]) -> Option<usize> {
    // The leaders first (most bots are one process), then the rest of each group.
    for (seat, g) in groups.iter().enumerate() {
        if g.is_some_and(|g| holds(g, inode)) {
            return Some(seat);
        }
    }
    for (seat, g) in groups.iter().enumerate() {
        if let Some(g) = g {
            if group_members(*g)
                .into_iter()
                .skip(1)
                .any(|p| holds(p, inode))
            {
                return Some(seat);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;

    #[test]
    fn a_connection_of_this_process_is_found_by_its_inode() {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let c = TcpStream::connect(l.local_addr().unwrap()).unwrap();
        let (s, _) = l.accept().unwrap();
        let me = std::process::id();
        let inode = client_inode(&s).expect("the client end is listed");
        assert!(holds(me, inode));
        // Our own process stands in for a bot's group leader.
        assert_eq!(owner(inode, &[None, Some(me)]), Some(1));
        assert_eq!(owner(inode, &[None, None]), None);
        // What the client has not read shows in its receive queue.
        let mut s = s;
        std::io::Write::write_all(&mut s, b"{\"x\": 1}").unwrap();
        let until = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while unread(inode) != Some(8) && std::time::Instant::now() < until {
            std::thread::yield_now();
        }
        assert_eq!(unread(inode), Some(8));
        let mut buf = [0u8; 16];
        let mut c = c;
        assert_eq!(std::io::Read::read(&mut c, &mut buf).unwrap(), 8);
        assert_eq!(unread(inode), Some(0));
    }
}
