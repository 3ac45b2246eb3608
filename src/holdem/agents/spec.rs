//! The `--agents` list: comma-separated agents, one for every seat or one
//! per seat. A comma inside parentheses or quotes does not separate two
//! agents (`tag(open=8,call=9)`, `exec:"bot --a,b"`).

use std::sync::Arc;
use std::time::Duration;

use super::params;
use super::{AgentKind, AgentSpec, Chart, ExecAgent, PushFoldParams, TagParams};

/// Why an `--agents` list cannot be used (one line).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad --agents: {0}")]
pub struct SpecError(pub String);

/// Splits `text` at the commas outside parentheses and quotes.
pub fn split_list(text: &str) -> Result<Vec<&str>, SpecError> {
    let mut parts = Vec::new();
    let (mut depth, mut quote, mut start) = (0usize, None::<char>, 0);
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '(') => depth += 1,
            (None, ')') => {
                depth = depth.checked_sub(1).ok_or_else(|| {
                    SpecError(format!("'{}' closes a parenthesis never opened", q(text)))
                })?
            }
            (None, ',') if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if quote.is_some() {
        return Err(SpecError(format!("'{}' has an unclosed quote", q(text))));
    }
    if depth > 0 {
        return Err(SpecError(format!(
            "'{}' has an unclosed parenthesis",
            q(text)
        )));
    }
    parts.push(&text[start..]);
    Ok(parts)
}

fn q(text: &str) -> String {
    crate::text::quote(text)
}

/// The agents of `players` seats from an `--agents` list: one agent for
/// every seat, or one per seat. `exec` starts the programs it names only
/// when a hand first asks them.
pub fn parse_agents(
    text: &str,
    players: usize,
    build: &dyn Fn(&str) -> Result<AgentSpec, SpecError>,
) -> Result<Vec<AgentSpec>, SpecError> {
    let parts = split_list(text)?;
    // The same text twice is the same agent (one session per worker).
    let mut named: Vec<(&str, AgentSpec)> = Vec::new();
    let mut agents = Vec::with_capacity(parts.len());
    for part in parts {
        let part = part.trim();
        let agent = match named.iter().find(|(t, _)| *t == part) {
            Some((_, a)) => a.clone(),
            None => {
                let a = build(part)?;
                named.push((part, a.clone()));
                a
            }
        };
        agents.push(agent);
    }
    match agents.len() {
        1 => Ok(vec![agents[0].clone(); players]),
        k if k == players => Ok(agents),
        k => Err(SpecError(format!(
            "{k} agents for {players} players (give one for all, or one per seat)"
        ))),
    }
}

/// One agent of an `--agents` list: `exec:COMMAND` (a program answering
/// within `timeout`, started only when a hand first asks it) or a built-in
/// agent ([`builtin`]).
pub fn agent(text: &str, timeout: Duration) -> Result<AgentSpec, SpecError> {
    if text.trim_start().starts_with("exec:") {
        let exec = ExecAgent::parse(text, timeout)?;
        return Ok(AgentSpec::External(Arc::new(exec)));
    }
    builtin(text)
}

/// One built-in agent: a name, with parameters for those that take them
/// (`tag(open=8,cbet=0.6)`). Parameters equal to the defaults give the
/// plain agent (recorded as `tag`).
pub fn builtin(text: &str) -> Result<AgentSpec, SpecError> {
    let (name, pairs) = params::split_call(text)?;
    if name == "chart" {
        return chart(&pairs);
    }
    let kind = AgentKind::parse(name).map_err(|e| SpecError(e.to_string()))?;
    let spec: Arc<str> = params::canonical(kind.name(), &pairs).into();
    match kind {
        AgentKind::Tag => {
            let p = params::tag_params(&pairs)?;
            Ok(if p == TagParams::DEFAULT {
                AgentSpec::Builtin(kind)
            } else {
                AgentSpec::Tag(p, spec)
            })
        }
        AgentKind::PushFold => {
            let p = params::pushfold_params(&pairs)?;
            Ok(if p == PushFoldParams::DEFAULT {
                AgentSpec::Builtin(kind)
            } else {
                AgentSpec::PushFold(p, spec)
            })
        }
        _ if !pairs.is_empty() => Err(SpecError(format!("{name} takes no parameters"))),
        _ => Ok(AgentSpec::Builtin(kind)),
    }
}

/// `chart(file=PATH[,blake3=HEX])`.
fn chart(pairs: &[(&str, &str)]) -> Result<AgentSpec, SpecError> {
    let (mut file, mut hash) = (None, None);
    for &(k, v) in pairs {
        match k {
            "file" => file = Some(v.trim_matches(|c| c == '\'' || c == '"')),
            "blake3" => hash = Some(v),
            _ => {
                return Err(SpecError(format!(
                    "chart has no parameter '{}' (it has file, blake3)",
                    crate::text::quote(k)
                )))
            }
        }
    }
    let file = file.ok_or_else(|| SpecError("chart needs file=PATH (a TOML chart)".into()))?;
    Ok(AgentSpec::Chart(Arc::new(Chart::load(file, hash)?)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_split_outside_parentheses_and_quotes() {
        assert_eq!(
            split_list("tag(a=1,b=2),station").unwrap(),
            vec!["tag(a=1,b=2)", "station"]
        );
        assert_eq!(
            split_list("exec:'bot --x,y',tag").unwrap(),
            vec!["exec:'bot --x,y'", "tag"]
        );
        assert!(split_list("tag(a=1").is_err());
        assert!(split_list("tag)").is_err());
        assert!(split_list("exec:'bot").is_err());
    }

    #[test]
    fn one_agent_serves_every_seat_or_one_per_seat() {
        let a = parse_agents("tag", 3, &builtin).unwrap();
        assert_eq!(a.len(), 3);
        assert_eq!(a[2].to_string(), "tag");
        let e = parse_agents("tag,station", 3, &builtin).unwrap_err();
        assert_eq!(
            e.to_string(),
            "bad --agents: 2 agents for 3 players (give one for all, or one per seat)"
        );
        assert!(parse_agents("shark", 3, &builtin).is_err());
        let a = parse_agents("tag(open=8, cbet=0.5),tag(open=9),station", 3, &builtin).unwrap();
        assert_eq!(a[0].to_string(), "tag(open=8,cbet=0.5)");
        assert!(matches!(a[1], AgentSpec::Builtin(AgentKind::Tag)));
        let e = parse_agents("station(x=1)", 2, &builtin).unwrap_err();
        assert_eq!(e.to_string(), "bad --agents: station takes no parameters");
    }
}
