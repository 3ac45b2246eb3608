//! `exec:COMMAND`: an agent in any language, a program speaking JSON lines
//! on its standard input and output (docs/agents.md, "Agents in any
//! language").
//!
//! The protocol, version [`PROTOCOL`]:
//! 1. cardsim writes a hello line, `{"protocol":1,"cardsim":"0.1.0","game":"holdem"}`;
//!    the program answers one line, a JSON object with `"protocol":1` (and
//!    a `"name"`, optional).
//! 2. Then, for every decision of a seat the program plays, cardsim writes
//!    the [`AgentView`] as one JSON line and the program answers one line,
//!    a PHH action (`f`, `cc`, `cbr 300`).
//!
//! One process per worker thread, started at its first decision and kept
//! for the next chunks of hands ([`External::give_back`]). Every process is
//! killed and waited for when its session is dropped (end of the run, an
//! error, Ctrl-C), so none is left behind, not even as a zombie.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::Deserialize;

use super::external::{External, Session};
use super::spec::SpecError;
use super::view::AgentView;

/// The version of the JSON-lines protocol this cardsim speaks.
pub const PROTOCOL: u32 = 1;

/// How long a program may take to answer by default (`--agent-timeout`).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// The longest line a program may answer (a longer one is garbage).
const MAX_LINE: usize = 64 << 10;

/// A program playing seats, as `exec:COMMAND` names it.
pub struct ExecAgent {
    /// The spec as written (`exec:'python3 bot.py'`).
    spec: String,
    argv: Vec<String>,
    timeout: Duration,
    /// The program's file and the first 16 hex digits of its BLAKE3, when
    /// the command names a readable file (see [`program_file`]).
    program: Option<(String, String)>,
    /// Started programs no worker holds now.
    idle: Mutex<Vec<Box<dyn Session>>>,
}

impl ExecAgent {
    /// The agent of `spec` (`exec:` followed by a command line in shell
    /// quoting), answering within `timeout`. The program is not started
    /// here: a worker starts it at its first decision.
    pub fn parse(spec: &str, timeout: Duration) -> Result<ExecAgent, SpecError> {
        let spec = spec.trim();
        let Some(command) = spec.strip_prefix("exec:") else {
            return Err(SpecError(format!(
                "'{}' is not exec:COMMAND",
                crate::text::quote(spec)
            )));
        };
        // A command quoted whole (`exec:'python3 bot.py'`, the quotes
        // keeping its commas and spaces in the list) is the words inside.
        let command = command.trim();
        let unquoted = [b'\'', b'"'].iter().find_map(|&q| {
            let b = command.as_bytes();
            (b.len() >= 2
                && b[0] == q
                && b[b.len() - 1] == q
                && !command[1..b.len() - 1].contains(q as char))
            .then(|| &command[1..b.len() - 1])
        });
        let command = unquoted.unwrap_or(command);
        let argv = shlex::split(command).ok_or_else(|| {
            SpecError(format!(
                "exec: cannot split '{}' into words (an unclosed quote?)",
                crate::text::quote(command)
            ))
        })?;
        if argv.is_empty() {
            return Err(SpecError(
                "exec: needs a command (exec:'python3 bot.py')".into(),
            ));
        }
        let program = match program_file(&argv) {
            Some(path) => {
                let hash = file_hash(path).map_err(|e| {
                    SpecError(format!(
                        "exec: cannot read '{}': {e}",
                        crate::text::quote(path)
                    ))
                })?;
                Some((path.to_string(), hash))
            }
            None => None,
        };
        Ok(ExecAgent {
            spec: spec.to_string(),
            argv,
            timeout,
            program,
            idle: Mutex::new(Vec::new()),
        })
    }

    /// The program's file and its hash, `bot.py=blake3:0123456789abcdef`,
    /// when the command names one.
    pub fn program(&self) -> Option<String> {
        self.program
            .as_ref()
            .map(|(path, hash)| format!("{path}=blake3:{hash}"))
    }

    fn start(&self) -> Result<ExecSession, String> {
        let mut command = Command::new(&self.argv[0]);
        command
            .args(&self.argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        // A process group of its own: a Ctrl-C at the terminal reaches
        // cardsim only (which stops the run and ends the program), and the
        // end of a session ends what the program started too (`sh -c`).
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command
            .spawn()
            .map_err(|e| format!("cannot start '{}': {e}", crate::text::quote(&self.argv[0])))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err("cannot open the program's pipes".into());
        };
        set_nonblocking(&stdin);
        let mut session = ExecSession {
            child,
            stdin,
            stdout: BufReader::with_capacity(8 << 10, stdout),
            out: Vec::with_capacity(1024),
            line: Vec::with_capacity(64),
            timeout: self.timeout,
            broken: false,
        };
        session.hello()?;
        Ok(session)
    }
}

impl External for ExecAgent {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn name(&self) -> &'static str {
        "exec"
    }

    fn program(&self) -> Option<String> {
        ExecAgent::program(self)
    }

    fn session(&self) -> Result<Box<dyn Session>, String> {
        let kept = self.idle.lock().ok().and_then(|mut idle| idle.pop());
        match kept {
            Some(session) => Ok(session),
            None => Ok(Box::new(self.start()?)),
        }
    }

    fn give_back(&self, session: Box<dyn Session>) {
        if session.usable() {
            if let Ok(mut idle) = self.idle.lock() {
                idle.push(session);
            }
        }
        // Otherwise dropped here: killed and waited for.
    }
}

/// Interpreters, by their file name's start: a command starting with one
/// runs the file after it (`python3 -u bot.py`, `node bot.js`).
const INTERPRETERS: [&str; 16] = [
    "python", "pypy", "node", "deno", "bun", "ruby", "perl", "php", "lua", "sh", "bash", "zsh",
    "rscript", "julia", "java", "env",
];

/// The file an `exec:` command runs, to hash: after an interpreter
/// ([`INTERPRETERS`], by its file name), the first word not starting with
/// `-` when that is a file (`python3 -u bot.py`); otherwise the command's
/// first word when that is a file (`./bot`). Names are not looked up in
/// `PATH`.
pub fn program_file(argv: &[String]) -> Option<&str> {
    let is_file = |w: &str| Path::new(w).is_file();
    let first = argv.first()?;
    let base = Path::new(first)
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    if INTERPRETERS.iter().any(|i| base.starts_with(i)) {
        let script = argv[1..]
            .iter()
            .find(|w| !w.starts_with('-') && !w.contains('='))?;
        return is_file(script).then_some(script.as_str());
    }
    is_file(first).then_some(first.as_str())
}

/// The first 16 hex digits of the BLAKE3 of the file at `path`.
fn file_hash(path: &str) -> io::Result<String> {
    let mut hasher = blake3::Hasher::new();
    let mut file = File::open(path)?;
    let mut buf = vec![0u8; 64 << 10];
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hasher.finalize().to_hex()[..16].to_string())
}

/// The program's answer to the hello line.
#[derive(Deserialize)]
struct Hello {
    protocol: u32,
}

/// One started program.
struct ExecSession {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    /// The line being written (one write per view).
    out: Vec<u8>,
    /// The line being read.
    line: Vec<u8>,
    timeout: Duration,
    /// Set once the program failed: it is never asked again.
    broken: bool,
}

impl ExecSession {
    fn hello(&mut self) -> Result<(), String> {
        let hello = format!(
            "{{\"protocol\":{PROTOCOL},\"cardsim\":\"{}\",\"game\":\"holdem\"}}\n",
            env!("CARGO_PKG_VERSION")
        );
        self.out.clear();
        self.out.extend_from_slice(hello.as_bytes());
        let answer = self.exchange()?;
        let expected =
            format!("expected a line like {{\"protocol\":{PROTOCOL},\"name\":\"my bot\"}}");
        let hello: Hello = serde_json::from_str(answer.trim()).map_err(|_| {
            self.broken = true;
            format!(
                "its answer to the hello line, '{}', is not the protocol's ({expected})",
                crate::text::quote(answer.trim())
            )
        })?;
        if hello.protocol != PROTOCOL {
            self.broken = true;
            return Err(format!(
                "it speaks protocol {}, cardsim speaks protocol {PROTOCOL}",
                hello.protocol
            ));
        }
        Ok(())
    }

    /// Writes `self.out` and reads one answer line.
    fn exchange(&mut self) -> Result<String, String> {
        if self.broken {
            return Err("the program failed earlier".into());
        }
        let result = self.write_then_read();
        if result.is_err() {
            self.broken = true;
        }
        result
    }

    fn write_then_read(&mut self) -> Result<String, String> {
        let deadline = Instant::now() + self.timeout;
        let timed_out = |timeout: Duration| {
            format!(
                "no answer within {} s (--agent-timeout)",
                timeout.as_secs_f64()
            )
        };
        // One write of the whole line, unless the pipe is full: then the
        // program is not reading, and the timeout applies to it as well.
        let mut written = 0;
        while written < self.out.len() {
            match self.stdin.write(&self.out[written..]) {
                Ok(0) => written = usize::MAX,
                Ok(n) => written += n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    let left = deadline.saturating_duration_since(Instant::now());
                    if !ready_within(&self.stdin, Ready::Write, left) {
                        return Err(timed_out(self.timeout));
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => written = usize::MAX,
            }
        }
        if written == usize::MAX {
            return Err(format!(
                "the program stopped reading its input{}",
                self.exit_status()
            ));
        }
        self.line.clear();
        loop {
            let buffered = self.stdout.buffer();
            if let Some(end) = buffered.iter().position(|&b| b == b'\n') {
                self.line.extend_from_slice(&buffered[..end]);
                self.stdout.consume(end + 1);
                break;
            }
            let n = buffered.len();
            self.line.extend_from_slice(buffered);
            self.stdout.consume(n);
            if self.line.len() > MAX_LINE {
                return Err(format!(
                    "answered a line longer than {MAX_LINE} bytes: '{}'",
                    crate::text::quote(&String::from_utf8_lossy(&self.line[..200]))
                ));
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if !ready_within(self.stdout.get_ref(), Ready::Read, left) {
                return Err(timed_out(self.timeout));
            }
            match self.stdout.fill_buf() {
                Ok([]) => {
                    return Err(format!(
                        "the program closed its output{}",
                        self.exit_status()
                    ))
                }
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(format!("cannot read the program's answer: {e}")),
            }
        }
        if self.line.last() == Some(&b'\r') {
            self.line.pop();
        }
        String::from_utf8(std::mem::take(&mut self.line)).map_err(|e| {
            format!(
                "answered '{}', which is not UTF-8",
                crate::text::quote(&String::from_utf8_lossy(e.as_bytes()))
            )
        })
    }

    /// ` (it exited with status 3)`, when it has exited within a moment.
    fn exit_status(&mut self) -> String {
        for _ in 0..20 {
            match self.child.try_wait() {
                Ok(Some(status)) => return format!(" (it exited: {status})"),
                Ok(None) => std::thread::sleep(Duration::from_millis(10)),
                Err(_) => break,
            }
        }
        String::new()
    }
}

/// What [`ready_within`] waits for.
#[derive(Clone, Copy)]
enum Ready {
    /// Something to read (data or the pipe's end).
    Read,
    /// Room to write (or the pipe's end).
    Write,
}

/// Whether `pipe` is ready (or broken: the next read or write says how)
/// within `wait`; `false` at once on a Ctrl-C of an armed run.
#[cfg(unix)]
fn ready_within(pipe: &impl std::os::fd::AsRawFd, ready: Ready, wait: Duration) -> bool {
    let fd = pipe.as_raw_fd();
    let events = match ready {
        Ready::Read => libc::POLLIN,
        Ready::Write => libc::POLLOUT,
    };
    let deadline = Instant::now() + wait;
    loop {
        if crate::sim::interrupt::signalled() {
            // Ctrl-C: the run stops and says so; this answer is moot.
            return false;
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return false;
        }
        // Slices of at most 100 ms, to see a Ctrl-C.
        let ms = left.as_millis().clamp(1, 100) as i32;
        let mut pfd = libc::pollfd {
            fd,
            events,
            revents: 0,
        };
        // SAFETY: one valid pollfd, owned by this frame, for the call only.
        let r = unsafe { libc::poll(&mut pfd, 1, ms) };
        if r > 0 {
            return true;
        }
        if r < 0 && io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            // A poll that fails: let the read or write say why.
            return true;
        }
    }
}

/// Without `poll`, no timeout: reads and writes wait.
#[cfg(not(unix))]
fn ready_within<T>(_pipe: &T, _ready: Ready, _wait: Duration) -> bool {
    true
}

/// Makes writes to the program's input return at once when its pipe is
/// full (the write then waits in [`ready_within`], under the timeout).
#[cfg(unix)]
fn set_nonblocking(stdin: &ChildStdin) {
    use std::os::fd::AsRawFd;
    let fd = stdin.as_raw_fd();
    // SAFETY: fcntl on a descriptor this process owns (the pipe's write
    // end, a file description of its own: the program's end is unchanged).
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags >= 0 {
            libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
        }
    }
}

#[cfg(not(unix))]
fn set_nonblocking(_stdin: &ChildStdin) {}

impl Session for ExecSession {
    fn act(&mut self, view: &AgentView) -> Result<String, String> {
        self.out.clear();
        serde_json::to_writer(&mut self.out, view)
            .map_err(|e| format!("cannot write the view: {e}"))?;
        self.out.push(b'\n');
        self.exchange()
    }

    fn usable(&self) -> bool {
        !self.broken
    }
}

impl Drop for ExecSession {
    fn drop(&mut self) {
        // Killed with its process group, then waited for: never left
        // running, never a zombie.
        #[cfg(unix)]
        if let Ok(pid) = libc::pid_t::try_from(self.child.id()) {
            // SAFETY: a plain system call on the group this session's
            // child leads (not yet waited for, so its id is not reused).
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        shlex::split(text).unwrap()
    }

    #[test]
    fn a_command_quoted_whole_is_the_words_inside() {
        let t = DEFAULT_TIMEOUT;
        let a = ExecAgent::parse("exec:'python3 -u bot.py --x \"a b\"'", t).unwrap();
        assert_eq!(a.argv, words("python3 -u bot.py --x 'a b'"));
        assert_eq!(a.spec(), "exec:'python3 -u bot.py --x \"a b\"'");
        let a = ExecAgent::parse(" exec:./bot --fast ", t).unwrap();
        assert_eq!(a.argv, ["./bot", "--fast"]);
        assert!(ExecAgent::parse("exec:", t).is_err());
        assert!(ExecAgent::parse("exec:'a", t).is_err());
        assert!(ExecAgent::parse("tag", t).is_err());
    }

    #[test]
    fn the_hashed_file_is_the_script_after_an_interpreter_or_the_program() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("bot.py");
        std::fs::write(&script, "print()\n").unwrap();
        let s = script.to_str().unwrap();
        let py = format!("python3 -u {s} cfg");
        assert_eq!(program_file(&words(&py)), Some(s));
        // An interpreter named by its path is still an interpreter.
        let full = format!("/usr/bin/python3 {s}");
        assert_eq!(program_file(&words(&full)), Some(s));
        assert_eq!(program_file(&words(&format!("env X=1 {s}"))), Some(s));
        // A program run directly is itself the file.
        assert_eq!(program_file(&words(&format!("{s} --x"))), Some(s));
        // No file: nothing hashed.
        assert_eq!(program_file(&words("python3 -c 'print(1)'")), None);
        assert_eq!(program_file(&words("no-such-bot")), None);
        let a = ExecAgent::parse(&format!("exec:python3 {s}"), DEFAULT_TIMEOUT).unwrap();
        let hash = blake3::hash(b"print()\n").to_hex()[..16].to_string();
        assert_eq!(a.program(), Some(format!("{s}=blake3:{hash}")));
    }
}
