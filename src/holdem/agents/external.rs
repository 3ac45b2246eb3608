//! Agents that live outside the engine: a program speaking JSON lines
//! (`exec:`), a Python function. They all see an [`AgentView`] and answer a
//! PHH action as text; the game parses and checks the answer, so every such
//! agent breaks the rules the same way, with the same error line.

use std::fmt;

use super::view::AgentView;

/// An agent the user brings. One value serves the whole run; each worker
/// thread plays through a [`Session`] of its own.
pub trait External: Send + Sync {
    /// The agent as the user wrote it (`exec:python3 bot.py`): named in
    /// errors, recorded in the summary's options.
    fn spec(&self) -> &str;
    /// The short name in metric names (`exec`, `python`).
    fn name(&self) -> &'static str;
    /// A session for one worker: one kept from an earlier worker, or a new
    /// one (a started program). The error is one line.
    fn session(&self) -> Result<Box<dyn Session>, String>;
    /// Takes back a session its worker is done with, for the next worker.
    fn give_back(&self, session: Box<dyn Session>);
    /// The file the agent runs and its hash (`bot.py=blake3:0123...`),
    /// recorded in the summary's options as `agent_programs`; `None` when
    /// there is no such file.
    fn program(&self) -> Option<String> {
        None
    }
}

impl fmt::Debug for dyn External {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.spec())
    }
}

/// One worker's line to an external agent.
pub trait Session: Send {
    /// The agent's answer to `view` (PHH text, or a mixed answer's JSON),
    /// or why there is none, in one line (the program exited, timed out,
    /// wrote garbage; the Python function raised).
    fn act(&mut self, view: &AgentView) -> Result<String, String>;
    /// Whether the session may serve another worker (`false` once it
    /// failed: a given-back session that is not usable is dropped).
    fn usable(&self) -> bool {
        true
    }
}
