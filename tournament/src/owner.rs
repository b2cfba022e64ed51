//! Which bot made a connection: the schedule says who sits where, so a hello that
//! asks for the other seat must be charged to the bot that sent it, not to the one
//! whose seat it asked for. TCP carries no sender, but Linux tells: the kernel's
//! socket diagnostics (`NETLINK_SOCK_DIAG`, what `ss` asks) look up the client end
//! of an accepted loopback connection by its exact four addresses, in the calling
//! thread's network namespace, and give its socket's inode and the bytes it has
//! not read; the bot that holds that socket has it among the fds of a process in
//! its group.
//!
//! The lookup is one hash probe in the kernel, whatever the number of sockets on
//! the machine (reading `/proc/net/tcp` instead walks every one of them, and a
//! tournament leaves thousands in TIME_WAIT: the cost grew with every game).

use std::fs;
use std::io::{self, Read};
use std::net::{SocketAddr, SocketAddrV4, TcpStream};
use std::time::Duration;

use socket2::{Domain, Protocol, Socket, Type};

/// The two ends of an accepted IPv4 connection: the bot's (client) and ours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ends {
    pub client: SocketAddrV4,
    pub server: SocketAddrV4,
}

impl Ends {
    /// The ends of `stream` (accepted by a listener of ours); `None` if not IPv4.
    pub fn of(stream: &TcpStream) -> Option<Ends> {
        match (stream.peer_addr().ok()?, stream.local_addr().ok()?) {
            (SocketAddr::V4(client), SocketAddr::V4(server)) => Some(Ends { client, server }),
            _ => None,
        }
    }
}

/// What the kernel says of the client end of a connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientEnd {
    /// Its socket's inode (as `/proc/PID/fd/*` links name it: `socket:[INODE]`).
    pub inode: u64,
    /// Bytes that reached it and its program has not read yet.
    pub unread: u64,
}

// The kernel's message numbers (linux/netlink.h, linux/sock_diag.h).
const SOCK_DIAG_BY_FAMILY: u16 = 20;
const NLMSG_ERROR: u16 = 2;
const NLM_F_REQUEST: u16 = 1;
/// The netlink header, then `struct inet_diag_req_v2` (family, protocol, ext,
/// pad, states, then the 48 bytes of `struct inet_diag_sockid`).
const REQUEST_LEN: usize = 16 + 8 + 48;
/// Where `struct inet_diag_msg`'s fields sit after the netlink header: family,
/// state, timer, retrans, the sockid, expires, then these.
const RQUEUE_AT: usize = 16 + 4 + 48 + 4;
const INODE_AT: usize = RQUEUE_AT + 12;

/// Ask the kernel for the client end of `ends`: `Ok(None)` if there is no such
/// socket (closed and gone).
///
/// # Errors
/// The calling thread cannot open a `NETLINK_SOCK_DIAG` socket, or the kernel's
/// answer is not one (a kernel without `tcp_diag`).
pub fn client_end(ends: Ends) -> io::Result<Option<ClientEnd>> {
    let sock = Socket::new(
        Domain::from(libc::AF_NETLINK),
        Type::DGRAM,
        Some(Protocol::from(libc::NETLINK_SOCK_DIAG)),
    )?;
    sock.set_read_timeout(Some(Duration::from_secs(1)))?;
    sock.send(&request(ends))?;
    let mut buf = [0u8; 1024];
    let n = (&sock).read(&mut buf)?;
    parse_answer(&buf[..n])
}

/// An exact lookup (no dump flag): the socket whose local end is the bot's
/// address and whose remote end is ours, any state, any cookie.
fn request(ends: Ends) -> [u8; REQUEST_LEN] {
    let mut m = [0u8; REQUEST_LEN];
    m[0..4].copy_from_slice(&(REQUEST_LEN as u32).to_ne_bytes());
    m[4..6].copy_from_slice(&SOCK_DIAG_BY_FAMILY.to_ne_bytes());
    m[6..8].copy_from_slice(&NLM_F_REQUEST.to_ne_bytes());
    // Sequence number and port id stay 0 (the kernel fills in ours).
    m[16] = libc::AF_INET as u8;
    m[17] = libc::IPPROTO_TCP as u8;
    m[20..24].copy_from_slice(&u32::MAX.to_ne_bytes());
    // inet_diag_sockid: ports and addresses in network order.
    let id = &mut m[24..];
    id[0..2].copy_from_slice(&ends.client.port().to_be_bytes());
    id[2..4].copy_from_slice(&ends.server.port().to_be_bytes());
    id[4..8].copy_from_slice(&ends.client.ip().octets());
    id[20..24].copy_from_slice(&ends.server.ip().octets());
    // Interface 0 (any); the cookie all ones (none asked for).
    id[40..48].fill(0xff);
    m
}

fn parse_answer(msg: &[u8]) -> io::Result<Option<ClientEnd>> {
    let u32_at = |at: usize| {
        msg.get(at..at + 4)
            .and_then(|b| b.try_into().ok())
            .map(u32::from_ne_bytes)
    };
    let kind = msg
        .get(4..6)
        .and_then(|b| b.try_into().ok())
        .map(u16::from_ne_bytes);
    let bad = || {
        io::Error::new(
            io::ErrorKind::InvalidData,
            "not a socket diagnostics answer",
        )
    };
    match kind {
        Some(SOCK_DIAG_BY_FAMILY) => match (u32_at(RQUEUE_AT), u32_at(INODE_AT)) {
            (Some(rq), Some(inode)) => Ok(Some(ClientEnd {
                inode: u64::from(inode),
                unread: u64::from(rq),
            })),
            _ => Err(bad()),
        },
        Some(NLMSG_ERROR) => {
            // A negative errno: ENOENT says no such socket.
            let errno = u32_at(16).map_or(0, |e| -(e as i32));
            if errno == libc::ENOENT {
                Ok(None)
            } else {
                Err(io::Error::from_raw_os_error(errno))
            }
        }
        _ => Err(bad()),
    }
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
/// process holds the client socket `inode` ([`client_end`]), if it can be told.
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
    use std::io::Write;
    use std::net::TcpListener;
    use std::time::Instant;

    /// The inode of the socket behind one of our own fds, from its /proc link.
    fn inode_of_fd(fd: i32) -> u64 {
        let link = fs::read_link(format!("/proc/self/fd/{fd}")).unwrap();
        let s = link.to_str().unwrap();
        s.trim_start_matches("socket:[")
            .trim_end_matches(']')
            .parse()
            .unwrap()
    }

    #[test]
    fn a_connection_of_this_process_is_found_by_its_inode() {
        use std::os::fd::AsRawFd;
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let c = TcpStream::connect(l.local_addr().unwrap()).unwrap();
        let (mut s, _) = l.accept().unwrap();
        let ends = Ends::of(&s).unwrap();
        let end = client_end(ends).unwrap().expect("the client end is found");
        // The kernel's inode is the one our client fd links to (not the server's).
        assert_eq!(end.inode, inode_of_fd(c.as_raw_fd()));
        assert_ne!(end.inode, inode_of_fd(s.as_raw_fd()));
        let me = std::process::id();
        assert!(holds(me, end.inode));
        // Our own process stands in for a bot's group leader.
        assert_eq!(owner(end.inode, &[None, Some(me)]), Some(1));
        assert_eq!(owner(end.inode, &[None, None]), None);
        // What the client has not read shows in its receive queue.
        assert_eq!(end.unread, 0);
        s.write_all(b"{\"x\": 1}").unwrap();
        let unread = || client_end(ends).unwrap().map(|e| e.unread);
        let until = Instant::now() + Duration::from_secs(5);
        while unread() != Some(8) && Instant::now() < until {
            std::thread::yield_now();
        }
        assert_eq!(unread(), Some(8));
        let mut buf = [0u8; 16];
        let mut c = c;
        assert_eq!(c.read(&mut buf).unwrap(), 8);
        assert_eq!(unread(), Some(0));
        // Another port is no socket; the server's own end is not the client's.
        let other = Ends {
            client: SocketAddrV4::new(*ends.client.ip(), ends.client.port().wrapping_add(1)),
            server: ends.server,
        };
        assert_eq!(client_end(other).unwrap(), None);
    }

    #[test]
    fn each_of_many_connections_is_told_apart() {
        // Among hundreds of connections (each end in the table), each lookup finds
        // its own client end.
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let mut keep = Vec::new();
        for _ in 0..200 {
            let c = TcpStream::connect(l.local_addr().unwrap()).unwrap();
            let (s, _) = l.accept().unwrap();
            keep.push((c, s));
        }
        for (c, s) in keep.iter().step_by(37) {
            use std::os::fd::AsRawFd;
            let end = client_end(Ends::of(s).unwrap()).unwrap().unwrap();
            assert_eq!(end.inode, inode_of_fd(c.as_raw_fd()));
        }
    }
}
