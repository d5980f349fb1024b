//! Listening: TCP or a Unix socket, a thread per connection (at most the
//! server's `max_connections`; one more is told `ERR` and closed), each
//! answering its requests with [`Server::serve_stream`]. The accept loop
//! and every connection look at the stop flag at least every
//! [`POLL`], so a stop is seen within that time.

use super::Server;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::os::unix::net::UnixListener;
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

/// How often a waiting listener or connection looks at the stop flag.
pub const POLL: Duration = Duration::from_millis(50);

/// How long a reply may wait for a client that does not read before the
/// connection is closed (until then the client is simply not read from).
pub const STALLED: Duration = Duration::from_secs(10);

/// Where a server listens.
pub enum Listener {
    /// A TCP socket.
    Tcp(TcpListener),
    /// A Unix socket.
    Unix(UnixListener),
}

/// A connection's stream, either kind.
trait Stream: std::io::Read + Write + Send + 'static {
    fn timeouts(&self, read: Duration, write: Duration) -> std::io::Result<()>;
    fn blocking(&self) -> std::io::Result<()>;
    fn split(&self) -> std::io::Result<Box<dyn Write + Send>>;
    fn end_writes(&self) -> std::io::Result<()>;
}

macro_rules! stream {
    ($t:ty) => {
        impl Stream for $t {
            fn timeouts(&self, read: Duration, write: Duration) -> std::io::Result<()> {
                self.set_read_timeout(Some(read))?;
                self.set_write_timeout(Some(write))
            }
            fn blocking(&self) -> std::io::Result<()> {
                self.set_nonblocking(false)
            }
            fn split(&self) -> std::io::Result<Box<dyn Write + Send>> {
                Ok(Box::new(self.try_clone()?))
            }
            fn end_writes(&self) -> std::io::Result<()> {
                self.shutdown(std::net::Shutdown::Write)
            }
        }
    };
}
stream!(std::net::TcpStream);
stream!(std::os::unix::net::UnixStream);

impl Listener {
    /// Accepts connections until the server stops, serving each on a
    /// thread of its own; returns once every connection has closed.
    pub fn run(self, server: &Arc<Server>) -> std::io::Result<()> {
        match &self {
            Listener::Tcp(l) => l.set_nonblocking(true)?,
            Listener::Unix(l) => l.set_nonblocking(true)?,
        }
        let mut threads: Vec<std::thread::JoinHandle<()>> = Vec::new();
        while !server.stopping() {
            let accepted: std::io::Result<Box<dyn Stream>> = match &self {
                Listener::Tcp(l) => l.accept().map(|(s, _)| {
                    // Replies go out as they are written, not held for more.
                    let _ = s.set_nodelay(true);
                    Box::new(s) as Box<dyn Stream>
                }),
                Listener::Unix(l) => l.accept().map(|(s, _)| Box::new(s) as Box<dyn Stream>),
            };
            let stream = match accepted {
                Ok(s) => s,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    std::thread::sleep(Duration::from_millis(2));
                    continue;
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                // Out of descriptors and the like: wait, then go on.
                Err(_) => {
                    std::thread::sleep(POLL);
                    continue;
                }
            };
            threads.retain(|t| !t.is_finished());
            if threads.len() >= server.opts.max_connections {
                server.stats.refused.fetch_add(1, Relaxed);
                let mut s = stream;
                let _ = s.blocking().and_then(|()| s.timeouts(POLL, POLL));
                let _ =
                    writeln!(s, "ERR the server is serving its limit of {} connections", server.opts.max_connections);
                close_gently(s);
                continue;
            }
            let server = server.clone();
            threads.push(std::thread::spawn(move || serve_one(&server, stream)));
        }
        for t in threads {
            let _ = t.join();
        }
        Ok(())
    }
}

/// Serves one connection; any failure of it (a client gone) ends only it.
fn serve_one(server: &Server, mut stream: Box<dyn Stream>) {
    server.stats.connections.fetch_add(1, Relaxed);
    let served = (|| {
        stream.blocking()?;
        stream.timeouts(POLL, STALLED)?;
        let out = std::io::BufWriter::with_capacity(64 << 10, stream.split()?);
        server.serve_stream(&mut stream, out)
    })();
    if served.is_ok() {
        close_gently(stream);
    }
    server.stats.connections.fetch_sub(1, Relaxed);
}

/// Closes a connection whose client may still be sending: the replies are
/// followed by the end of the stream, and what the client sends meanwhile
/// is read and dropped for a moment (closing with it unread would reset
/// the connection, and a reset can discard replies the client has not yet
/// read).
fn close_gently(mut stream: Box<dyn Stream>) {
    if stream.end_writes().is_err() {
        return;
    }
    let _ = stream.timeouts(POLL, POLL);
    let t = std::time::Instant::now();
    let mut sink = [0u8; 16 << 10];
    while t.elapsed() < CLOSING {
        match stream.read(&mut sink) {
            Ok(0) => return,
            Ok(_) => {}
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {}
            Err(_) => return,
        }
    }
}

/// How long [`close_gently`] reads what a closing client still sends.
const CLOSING: Duration = Duration::from_millis(250);
