//! `rosenblatt serve` as its clients meet it: the binary on loopback (and
//! on standard input), real sockets, bounded in count and time, with
//! faults injected — bad and oversized lines, clients that vanish, half
//! close or never read, model swaps (half of them to files that must be
//! refused) under load, a stop under load.

mod common;

use common::{p, rosenblatt, run};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// Each read of a reply waits at most this long: a hang fails, never blocks.
const WAIT: Duration = Duration::from_secs(20);

/// A tabular set's test rows as LIBSVM text, and models trained on its
/// training rows: two that read the same requests (logistic, averaged
/// Perceptron) and one of another dimension.
struct Setup {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
    text: PathBuf,
    a: PathBuf,
    b: PathBuf,
    other: PathBuf,
}

fn setup() -> Setup {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let ok = |args: &[&str]| {
        let (code, _, err) = run(args);
        assert_eq!(code, 0, "{args:?}: {err}");
    };
    let tab = dir.join("tab");
    ok(&["datasets", "tabular", "-o", p(&tab), "--rows", "3000", "--test-rows", "2000", "--quiet"]);
    let text = dir.join("test.svm");
    ok(&["export", p(&tab.join("test")), "-o", p(&text)]);
    let (a, b, other) = (dir.join("a.model"), dir.join("b.model"), dir.join("other.model"));
    ok(&["train", p(&tab.join("train")), "--learner", "logistic", "-o", p(&a), "--quiet"]);
    ok(&["train", p(&tab.join("train")), "--learner", "averaged-perceptron", "-o", p(&b), "--quiet"]);
    let small = dir.join("small.svm");
    std::fs::write(&small, "1 1:1 5:2\n-1 2:1 3:1\n").unwrap();
    ok(&["convert", p(&small), "-o", p(&dir.join("small")), "--quiet"]);
    ok(&["train", p(&dir.join("small")), "--learner", "perceptron", "-o", p(&other), "--quiet"]);
    Setup { _tmp: tmp, dir, text, a, b, other }
}

/// The setup, model `a` served with `extra` flags, the test rows' lines,
/// and `predict`'s line for each under `a`. (Bound in this order, the
/// server stops before the setup's folder goes.)
fn serving_a(extra: &[&str]) -> (Setup, Server, Vec<Vec<u8>>, Vec<String>) {
    let s = setup();
    let server = Server::start(&s.a, &s.dir, extra);
    let (good, want) = (text_lines(&s.text), predicted(&s.a, &s.text));
    (s, server, good, want)
}

/// `predict`'s lines for `text` under `model`.
fn predicted(model: &Path, text: &Path) -> Vec<String> {
    let (code, out, err) = run(&["predict", p(model), p(text)]);
    assert_eq!(code, 0, "{err}");
    out.lines().map(str::to_string).collect()
}

/// A server child, killed when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start(model: &Path, dir: &Path, extra: &[&str]) -> Server {
        let port_file = dir.join(format!("port-{}", rand_suffix()));
        let child = rosenblatt()
            .args(["serve", p(model), "--port", "0", "--port-file", p(&port_file)])
            .args(extra)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let t = Instant::now();
        while !port_file.exists() {
            assert!(t.elapsed() < WAIT, "the server wrote no port file");
            std::thread::sleep(Duration::from_millis(10));
        }
        let addr = std::fs::read_to_string(&port_file).unwrap().trim().to_string();
        Server { child, addr }
    }
    fn connect(&self) -> TcpStream {
        let s = TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(WAIT)).unwrap();
        s.set_write_timeout(Some(WAIT)).unwrap();
        s
    }
    fn signal(&self, sig: &str) {
        // The shell's own `kill`: no procps needed.
        let ok =
            std::process::Command::new("sh").args(["-c", &format!("kill {sig} {}", self.child.id())]).status().unwrap();
        assert!(ok.success());
    }
    /// Resident memory, in KiB.
    fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    }
    /// Waits for the exit: (code, stderr).
    fn wait(mut self) -> (i32, String) {
        let t = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                let mut err = String::new();
                self.child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
                return (status.code().unwrap_or(-1), err);
            }
            assert!(t.elapsed() < WAIT, "the server did not stop");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn rand_suffix() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}

/// Sends `lines` on `s` from a thread while reading one reply per line
/// here: the replies, in order.
fn exchange(s: &TcpStream, lines: Vec<Vec<u8>>) -> Vec<String> {
    let n = lines.len();
    let mut w = s.try_clone().unwrap();
    let sender = std::thread::spawn(move || {
        for l in &lines {
            w.write_all(l)?;
            w.write_all(b"\n")?;
        }
        w.flush()
    });
    let mut r = BufReader::new(s.try_clone().unwrap());
    let mut replies = Vec::with_capacity(n);
    for _ in 0..n {
        let mut line = String::new();
        assert!(r.read_line(&mut line).unwrap() > 0, "the server closed after {} replies", replies.len());
        replies.push(line.trim_end_matches('\n').to_string());
    }
    sender.join().unwrap().unwrap();
    replies
}

fn text_lines(text: &Path) -> Vec<Vec<u8>> {
    std::fs::read(text).unwrap().split(|&b| b == b'\n').filter(|l| !l.is_empty()).map(<[u8]>::to_vec).collect()
}

#[test]
fn serve_stdio_of_a_file_is_predict_of_it_byte_for_byte() {
    let s = setup();
    for model in [&s.a, &s.b] {
        let out = rosenblatt()
            .args(["serve", p(model), "--stdio"])
            .stdin(std::fs::File::open(&s.text).unwrap())
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let (code, want, _) = run(&["predict", p(model), p(&s.text)]);
        assert_eq!(code, 0);
        assert_eq!(String::from_utf8(out.stdout).unwrap(), want, "{}", model.display());
    }
}

/// 10^5 lines, good ones mixed with malformed, empty and oversized ones
/// (some far over the limit), pipelined on one connection: every good line
/// gets predict's reply, every bad one `ERR`, and the server's memory stays
/// bounded (the oversized lines are never kept).
#[test]
fn bad_and_oversized_lines_get_err_and_good_ones_their_predictions() {
    let (_setup, server, good, want) = serving_a(&["--max-line", "4096"]);
    let rss_before = server.rss_kib();
    let bad: [&[u8]; 6] = [b"1 3:x", b"", b"1 5:1 2:1", b"label 1:1", b"1 0:1", b"1 3:1\r7:1"];
    let mut lines = Vec::new();
    let mut expect: Vec<Option<&str>> = Vec::new();
    for i in 0..100_000usize {
        match i % 10 {
            0..=6 => {
                lines.push(good[i % good.len()].clone());
                expect.push(Some(&want[i % good.len()]));
            }
            7 | 8 => {
                lines.push(bad[i % bad.len()].to_vec());
                expect.push(None);
            }
            _ => {
                // Just over the limit, or 64 times it: the same answer.
                let long = match i % 1000 {
                    999 => 4096 * 64,
                    _ if i % 20 == 9 => 4097,
                    _ => 4096 * 8,
                };
                let mut l = b"1".to_vec();
                let mut k = 0;
                while l.len() < long {
                    k += 1;
                    l.extend_from_slice(format!(" {k}:1").as_bytes());
                }
                lines.push(l);
                expect.push(None);
            }
        }
    }
    let conn = server.connect();
    let replies = exchange(&conn, lines);
    for (i, (got, want)) in replies.iter().zip(&expect).enumerate() {
        match want {
            Some(w) => assert_eq!(got, w, "line {}", i + 1),
            None => assert!(got.starts_with("ERR "), "line {}: {got}", i + 1),
        }
    }
    assert!(replies.iter().any(|r| r.contains("longer than 4096 bytes")));
    assert!(replies.iter().any(|r| r.starts_with("ERR column 5:")), "the bad value's column");
    let grown = server.rss_kib().saturating_sub(rss_before);
    // 10,000 lines of 4 KiB to 256 KiB went through: none of them was kept.
    eprintln!("resident memory: {rss_before} KiB before, grew by {grown} KiB");
    assert!(grown < 16 << 10, "resident memory grew by {grown} KiB");
}

/// A client that vanishes mid-line, one that half-closes after a last line
/// without its `\n` (answered, then the end), one that sends garbage bytes
/// and goes: the server answers the next client as the first.
#[test]
fn clients_that_vanish_or_half_close_disturb_no_one() {
    let (_setup, server, good, want) = serving_a(&[]);
    for _ in 0..50 {
        let mut c = server.connect();
        c.write_all(&good[0][..good[0].len() / 2]).unwrap();
        drop(c);
        let mut c = server.connect();
        c.write_all(b"\xff\xfe\x00 1:1\n\x00\x00").unwrap();
        let _ = c.shutdown(Shutdown::Both);
    }
    let mut c = server.connect();
    c.write_all(&good[1]).unwrap();
    c.write_all(b"\n").unwrap();
    c.write_all(&good[2]).unwrap();
    c.shutdown(Shutdown::Write).unwrap();
    let mut replies = String::new();
    c.read_to_string(&mut replies).unwrap();
    assert_eq!(replies, format!("{}\n{}\n", want[1], want[2]));
    let replies = exchange(&server.connect(), good[..100].to_vec());
    assert_eq!(replies, want[..100]);
}

/// A client that sends and never reads is held back (the server stops
/// reading it), without the server's memory growing, while another client
/// is served.
#[test]
fn a_client_that_never_reads_gets_back_pressure_not_memory() {
    let (_setup, server, good, want) = serving_a(&[]);
    let rss_before = server.rss_kib();
    let hog = server.connect();
    hog.set_write_timeout(Some(Duration::from_secs(1))).unwrap();
    let mut w = hog.try_clone().unwrap();
    let mut block = Vec::new();
    good.iter().for_each(|l| {
        block.extend_from_slice(l);
        block.push(b'\n');
    });
    // Write until the socket will take no more: 64 MiB at most.
    let mut sent = 0usize;
    while sent < 64 << 20 {
        match w.write(&block) {
            Ok(n) => sent += n,
            Err(_) => break,
        }
    }
    assert!(sent < 64 << 20, "the server kept reading a client that reads nothing ({sent} bytes taken)");
    let grown = server.rss_kib().saturating_sub(rss_before);
    eprintln!("{sent} bytes taken from a client that reads nothing; resident memory grew by {grown} KiB");
    assert!(grown < 16 << 10, "resident memory grew by {grown} KiB while {sent} bytes were sent");
    let replies = exchange(&server.connect(), good[..500].to_vec());
    assert_eq!(replies, want[..500]);
    drop(hog);
}

/// Replaces `to` with `bytes` as a program that writes models should: a
/// whole new file renamed into place.
fn replace(to: &Path, bytes: &[u8]) {
    let tmp = to.with_extension("new");
    std::fs::write(&tmp, bytes).unwrap();
    std::fs::rename(&tmp, to).unwrap();
}

/// 100 model swaps by SIGHUP under load from four pipelining clients,
/// half of them to files that must be refused (corrupt, or of another
/// dimension): every reply is one of the two good models' answers for its
/// line, both models answer, and the refused files change nothing.
#[test]
fn a_hundred_swaps_under_load_drop_or_spoil_no_reply() {
    let s = setup();
    let served = s.dir.join("served.model");
    let (a, b, other) = (std::fs::read(&s.a).unwrap(), std::fs::read(&s.b).unwrap(), std::fs::read(&s.other).unwrap());
    replace(&served, &a);
    let server = Server::start(&served, &s.dir, &[]);
    let good = text_lines(&s.text);
    let (want_a, want_b) = (predicted(&s.a, &s.text), predicted(&s.b, &s.text));
    let differ = want_a.iter().zip(&want_b).filter(|(x, y)| x != y).count();
    assert!(differ > good.len() * 9 / 10, "the two models must tell their replies apart");
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let clients: Vec<_> = (0..4)
        .map(|_| {
            let (conn, good, stop) = (server.connect(), good.clone(), stop.clone());
            let (want_a, want_b) = (want_a.clone(), want_b.clone());
            std::thread::spawn(move || {
                let (mut from_a, mut from_b, mut rounds) = (0usize, 0usize, 0);
                while !stop.load(std::sync::atomic::Ordering::Relaxed) || rounds == 0 {
                    let replies = exchange(&conn, good.clone());
                    for (i, r) in replies.iter().enumerate() {
                        match (r == &want_a[i], r == &want_b[i]) {
                            (true, _) => from_a += 1,
                            (_, true) => from_b += 1,
                            _ => panic!("line {}: {r:?} is neither model's ({:?}, {:?})", i + 1, want_a[i], want_b[i]),
                        }
                    }
                    rounds += 1;
                }
                (from_a, from_b)
            })
        })
        .collect();
    for i in 0..100 {
        match i % 4 {
            0 => replace(&served, &b),
            1 => replace(&served, &a[..a.len() / 2]),
            2 => replace(&served, &a),
            _ => replace(&served, &other),
        }
        server.signal("-HUP");
        std::thread::sleep(Duration::from_millis(40));
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let (mut from_a, mut from_b) = (0, 0);
    for c in clients {
        let (x, y) = c.join().unwrap();
        (from_a, from_b) = (from_a + x, from_b + y);
    }
    assert!(from_a > 0 && from_b > 0, "replies from a: {from_a}, from b: {from_b}");
    let stats = exchange(&server.connect(), vec![b"#stats".to_vec()]);
    let v: serde_json::Value = serde_json::from_str(&stats[0]).unwrap();
    assert_eq!(v["errors"], 0, "{v}");
    assert!(v["reloads"].as_u64().unwrap() >= 10, "{v}");
    assert!(v["reloads_refused"].as_u64().unwrap() >= 10, "{v}");
    // The checksum is the file's own: the last swap (i = 99) left `other`
    // refused, so `a` (i = 98) serves.
    let crc = |b: &[u8]| format!("{:08x}", u32::from_le_bytes(*b.last_chunk::<4>().unwrap()));
    assert_ne!(crc(&a), crc(&b));
    assert_eq!(v["model_crc32"], crc(&a), "{v}");
    server.signal("-TERM");
    let (code, err) = server.wait();
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("kept the model being served") && err.contains("dimension"), "{err}");
}

/// SIGTERM while eight clients pipeline without pause: the server stops
/// within its poll time, exits 0, every reply a client got is right, each
/// connection ends cleanly, and the replies counted by the server are the
/// replies the clients got — every line it read was answered.
#[test]
fn a_stop_under_load_answers_every_line_read() {
    let (_setup, server, good, want) = serving_a(&[]);
    let clients: Vec<_> = (0..8)
        .map(|_| {
            let conn = server.connect();
            let mut w = conn.try_clone().unwrap();
            let block: Vec<u8> = good.iter().flat_map(|l| l.iter().copied().chain([b'\n'])).collect();
            std::thread::spawn(move || while w.write_all(&block).is_ok() {});
            let want = want.clone();
            std::thread::spawn(move || {
                let mut r = BufReader::new(conn);
                let mut n = 0usize;
                loop {
                    let mut line = String::new();
                    match r.read_line(&mut line) {
                        Ok(0) => return n,
                        Ok(_) => {
                            assert_eq!(line.trim_end(), want[n % want.len()], "reply {}", n + 1);
                            n += 1;
                        }
                        Err(e) => panic!("after {n} replies: {e}"),
                    }
                }
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    server.signal("-TERM");
    let (code, err) = server.wait();
    assert_eq!(code, 0, "{err}");
    let got: usize = clients.into_iter().map(|c| c.join().unwrap()).sum();
    assert!(got > 0);
    assert!(err.contains(&format!("stopped after {got} requests")), "clients got {got} replies; {err}");
}

/// One connection over `--max-connections` is told so and closed; `#stats`
/// answers one JSON line; a Unix socket serves as TCP does.
#[test]
fn the_connection_limit_stats_and_a_unix_socket() {
    let (s, server, good, want) = serving_a(&["--max-connections", "2"]);
    let (c1, c2) = (server.connect(), server.connect());
    assert_eq!(exchange(&c1, good[..3].to_vec()), want[..3]);
    assert_eq!(exchange(&c2, good[..3].to_vec()), want[..3]);
    let mut refused = String::new();
    BufReader::new(server.connect()).read_line(&mut refused).unwrap();
    assert!(refused.starts_with("ERR ") && refused.contains("limit of 2"), "{refused}");
    let stats = exchange(&c1, vec![b"#stats".to_vec()]);
    let v: serde_json::Value = serde_json::from_str(&stats[0]).unwrap();
    assert_eq!((v["requests"].as_u64(), v["connections_refused"].as_u64()), (Some(6), Some(1)), "{v}");
    assert!(v["model_crc32"].as_str().is_some_and(|c| c.len() == 8), "{v}");
    // `#stats` is not a request.
    let again: serde_json::Value = serde_json::from_str(&exchange(&c1, vec![b"#stats".to_vec()])[0]).unwrap();
    assert_eq!(again["requests"].as_u64(), Some(6), "{again}");
    drop((c1, c2));

    let sock = s.dir.join("serve.sock");
    let mut child = rosenblatt().args(["serve", p(&s.a), "--unix", p(&sock)]).stdout(Stdio::piped()).spawn().unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    assert!(first.starts_with("listening on"), "{first}");
    let mut u = std::os::unix::net::UnixStream::connect(&sock).unwrap();
    u.set_read_timeout(Some(WAIT)).unwrap();
    u.write_all(&[good[0].as_slice(), b"\n", good[1].as_slice(), b"\n"].concat()).unwrap();
    u.shutdown(Shutdown::Write).unwrap();
    let mut replies = String::new();
    u.read_to_string(&mut replies).unwrap();
    assert_eq!(replies, format!("{}\n{}\n", want[0], want[1]));
    std::process::Command::new("sh").args(["-c", &format!("kill -TERM {}", child.id())]).status().unwrap();
    assert!(child.wait().unwrap().success());
    assert!(!sock.exists(), "the socket is removed at exit");
}

/// A model trained on VW text reads VW lines hashed with its settings:
/// without tags the replies are `predict`'s bytes; a tag is echoed after
/// them, as a LIBSVM line's comment is.
#[test]
fn vw_lines_are_hashed_with_the_models_settings_and_tags_echoed() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let mut text = String::new();
    for i in 0..400u32 {
        let y = if i % 3 == 0 { "1" } else { "-1" };
        text.push_str(&format!("{y} |u age:{} city=c{} |i item{} price:{}.5\n", i % 70, i % 5, i % 11, i % 4));
    }
    let vw = d.join("clicks.vw");
    std::fs::write(&vw, &text).unwrap();
    let (ds, model) = (d.join("clicks"), d.join("clicks.model"));
    assert_eq!(run(&["convert", p(&vw), "-q", "ui", "--bits", "18", "-o", p(&ds), "--quiet"]).0, 0);
    assert_eq!(run(&["train", p(&ds), "--learner", "logistic", "-o", p(&model), "--quiet"]).0, 0);
    let out =
        rosenblatt().args(["serve", p(&model), "--stdio"]).stdin(std::fs::File::open(&vw).unwrap()).output().unwrap();
    assert!(out.status.success());
    let want = run(&["predict", p(&model), p(&vw)]).1;
    assert_eq!(String::from_utf8(out.stdout).unwrap(), want);
    let server = Server::start(&model, d, &[]);
    let tagged: Vec<Vec<u8>> = text
        .lines()
        .take(50)
        .enumerate()
        .map(|(i, l)| l.replacen(" |u", &format!(" 'r{i}|u"), 1).into_bytes())
        .collect();
    let replies = exchange(&server.connect(), tagged);
    for (i, (got, want)) in replies.iter().zip(want.lines()).enumerate() {
        assert_eq!(got, &format!("{want} r{i}"));
    }
}

/// `--watch` serves a model file replaced in place within a second or
/// so, without a signal.
#[test]
fn watch_serves_a_replaced_model_file() {
    let s = setup();
    let served = s.dir.join("watched.model");
    replace(&served, &std::fs::read(&s.a).unwrap());
    let server = Server::start(&served, &s.dir, &["--watch"]);
    let good = text_lines(&s.text);
    let (want_a, want_b) = (predicted(&s.a, &s.text), predicted(&s.b, &s.text));
    let conn = server.connect();
    assert_eq!(exchange(&conn, good[..20].to_vec()), want_a[..20]);
    replace(&served, &std::fs::read(&s.b).unwrap());
    let t = Instant::now();
    while exchange(&conn, good[..20].to_vec()) != want_b[..20] {
        assert!(t.elapsed() < Duration::from_secs(10), "the replaced model is not served");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Reads that end anywhere — inside a line, inside an oversized line, at
/// its limit — change no reply: the library's connection loop given the
/// same bytes in random pieces answers as given them whole.
#[test]
fn replies_do_not_depend_on_where_reads_end() {
    struct Pieces<'a> {
        bytes: &'a [u8],
        at: usize,
        seed: u64,
    }
    impl Read for Pieces<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            self.seed = self.seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let want = match self.seed >> 60 {
                0 => 1,
                1..=5 => (self.seed >> 40) as usize % 64 + 1,
                _ => (self.seed >> 40) as usize % 3000 + 1,
            };
            let n = want.min(buf.len()).min(self.bytes.len() - self.at);
            buf[..n].copy_from_slice(&self.bytes[self.at..self.at + n]);
            self.at += n;
            Ok(n)
        }
    }
    let s = setup();
    let opts = rosenblatt::serve::ServeOptions { max_line: 200, ..Default::default() };
    let server = rosenblatt::serve::Server::new(&s.a, opts).unwrap();
    let mut input = Vec::new();
    for (i, l) in text_lines(&s.text).iter().take(300).enumerate() {
        match i % 7 {
            // Over the limit by one byte, and by a lot.
            3 => input.extend(std::iter::repeat_n(b'1', 201)),
            5 => input.extend(std::iter::repeat_n(b' ', 2000)),
            6 => input.extend_from_slice(b"1 2:x\r"),
            _ => input.extend_from_slice(l),
        }
        input.push(b'\n');
    }
    input.extend_from_slice(b"1 3:1"); // the last line has no `\n`
    let whole = {
        let mut out = Vec::new();
        server.serve_stream(&input[..], &mut out).unwrap();
        out
    };
    let text = String::from_utf8(whole.clone()).unwrap();
    assert_eq!(text.lines().count(), 301);
    assert_eq!(text.lines().filter(|l| l.contains("longer than 200 bytes")).count(), 2 * 43);
    for seed in 0..200 {
        let mut out = Vec::new();
        server.serve_stream(Pieces { bytes: &input, at: 0, seed }, &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), text, "seed {seed}");
    }
}
