//! A network namespace per game, for `--port`: bots that hard-code the course's
//! port (9000) each find their own referee on it, K games at once. Linux lets a
//! thread leave the process's network namespace for a new one of its own
//! (`unshare(CLONE_NEWNET)`, which needs root or a user namespace's capability);
//! every socket it then opens, every thread and every process it starts live
//! there, with a loopback interface of their own that this module brings up.
//!
//! One of the tournament's system-call boundaries (the workspace denies `unsafe`
//! elsewhere).

use std::io;
use std::net::UdpSocket;
use std::os::fd::AsRawFd;

// ioctl's request is a c_ulong in glibc and a c_int in musl (the release's static
// host binary, docs/release.md): the two requests in the C library's own type.
const REQUEST_GET_FLAGS: libc::Ioctl = libc::SIOCGIFFLAGS as libc::Ioctl;
const REQUEST_SET_FLAGS: libc::Ioctl = libc::SIOCSIFFLAGS as libc::Ioctl;

/// Move the calling thread into a new network namespace with its loopback up.
///
/// # Errors
/// The kernel refused the namespace (no privilege, or namespaces disabled), or the
/// loopback interface could not be brought up.
#[allow(unsafe_code)]
pub fn enter_new() -> io::Result<()> {
    // SAFETY: unshare(2) takes flags and touches no memory of ours; with only
    // CLONE_NEWNET it changes the calling thread's namespace alone.
    if unsafe { libc::unshare(libc::CLONE_NEWNET) } != 0 {
        return Err(io::Error::last_os_error());
    }
    loopback_up()
}

#[allow(unsafe_code)]
fn loopback_up() -> io::Result<()> {
    // Any socket of the namespace can carry the interface ioctls.
    let sock = UdpSocket::bind("0.0.0.0:0")?;
    // SAFETY: zeroed is a valid ifreq (a name of NULs and a union of plain
    // integers).
    let mut req: libc::ifreq = unsafe { std::mem::zeroed() };
    for (dst, src) in req.ifr_name.iter_mut().zip(b"lo\0") {
        *dst = *src as libc::c_char;
    }
    // SAFETY: SIOCGIFFLAGS reads the name from and writes the flags into the
    // ifreq it is given, which is ours and lives across the call.
    if unsafe { libc::ioctl(sock.as_raw_fd(), REQUEST_GET_FLAGS, &mut req) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the kernel filled ifru_flags (a c_short) just above.
    let flags = unsafe { req.ifr_ifru.ifru_flags };
    req.ifr_ifru.ifru_flags = flags | (libc::IFF_UP | libc::IFF_RUNNING) as libc::c_short;
    // SAFETY: SIOCSIFFLAGS reads the name and flags of the ifreq it is given.
    if unsafe { libc::ioctl(sock.as_raw_fd(), REQUEST_SET_FLAGS, &req) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Whether this machine gives a thread a namespace of its own (tried on a
/// throwaway thread).
pub fn available() -> bool {
    std::thread::spawn(|| enter_new().is_ok())
        .join()
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;

    #[test]
    fn two_threads_each_listen_on_the_same_port_in_namespaces_of_their_own() {
        if !available() {
            eprintln!("no network namespaces here; nothing to test");
            return;
        }
        let listen = || {
            std::thread::spawn(|| {
                enter_new().unwrap();
                let l = TcpListener::bind("127.0.0.1:9000").unwrap();
                let c = std::net::TcpStream::connect("127.0.0.1:9000").unwrap();
                let (s, _) = l.accept().unwrap();
                (c.local_addr().unwrap(), s.peer_addr().unwrap())
            })
        };
        let (a, b) = (listen(), listen());
        let (a, b) = (a.join().unwrap(), b.join().unwrap());
        assert_eq!(a.0, a.1);
        assert_eq!(b.0, b.1);
    }
}
