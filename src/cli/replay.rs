//! `cardsim replay`: replays PHH hand histories through the table engine.

use std::io::{Read, Write};
use std::path::PathBuf;

use anyhow::Context;
use clap::Args;

use crate::holdem::phh::{parse_sections, replay, ReplayOptions};
use crate::holdem::table::pots::OddChips;
use crate::holdem::table::ShortBigBlind;

#[derive(Debug, Args)]
#[command(after_help = "Examples:
  cardsim replay hand.phh
  cardsim replay hands.phhs --check
  cardsim replay phh/ --json")]
pub struct ReplayArgs {
    /// A `.phh` (one hand) or `.phhs` (many) file, a directory of them (as
    /// `holdem --phh DIR` writes; replayed in name order), or `-` for stdin.
    #[arg(value_name = "FILE|DIR")]
    pub file: PathBuf,
    /// Compare the engine's finishing stacks with each hand's
    /// `finishing_stacks` (exit 1 when any differs).
    #[arg(long)]
    pub check: bool,
    /// PokerKit's switches (odd chips to the first winner, a short big blind
    /// matched only as posted), whatever the file says.
    #[arg(long)]
    pub pokerkit: bool,
    /// One JSON object per hand.
    #[arg(long)]
    pub json: bool,
}

/// Largest history file read (a `.phhs` of a million hands is ~500 MB).
const MAX_FILE_BYTES: u64 = 1 << 30;

/// The texts to replay: one file, stdin, or every `.phh`/`.phhs` file of a
/// directory in name order; each with the name used in messages.
fn inputs(path: &std::path::Path) -> anyhow::Result<Vec<(String, String)>> {
    let name = path.display().to_string();
    let utf8 = |bytes: Vec<u8>, name: &str| {
        String::from_utf8(bytes)
            .map_err(|_| super::bad_input(format!("{name}: not UTF-8 text (a PHH file is TOML)")))
    };
    if name == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .context("cannot read stdin")?;
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(super::bad_input("stdin: more than 1 GiB of hand histories"));
        }
        return Ok(vec![(name.clone(), utf8(bytes, "stdin")?)]);
    }
    let read = |p: &std::path::Path| -> anyhow::Result<(String, String)> {
        let name = p.display().to_string();
        let len = std::fs::metadata(p)
            .map_err(|e| super::bad_input(format!("cannot read '{name}': {e}")))?
            .len();
        if len > MAX_FILE_BYTES {
            return Err(super::bad_input(format!("'{name}' is larger than 1 GiB")));
        }
        let bytes =
            std::fs::read(p).map_err(|e| super::bad_input(format!("cannot read '{name}': {e}")))?;
        Ok((name.clone(), utf8(bytes, &name)?))
    };
    if path.is_dir() {
        let mut files: Vec<PathBuf> = std::fs::read_dir(path)
            .map_err(|e| super::bad_input(format!("cannot read '{name}': {e}")))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "phh" || x == "phhs"))
            .collect();
        files.sort();
        if files.is_empty() {
            return Err(super::bad_input(format!(
                "'{name}' holds no .phh or .phhs file"
            )));
        }
        return files.iter().map(|p| read(p)).collect();
    }
    Ok(vec![read(path)?])
}

pub fn run(args: ReplayArgs) -> anyhow::Result<()> {
    let mut hands = Vec::new();
    for (name, text) in inputs(&args.file)? {
        let sections =
            parse_sections(&text).map_err(|e| super::bad_input(format!("{name}: {e}")))?;
        hands.extend(
            sections
                .into_iter()
                .map(|(section, t)| (name.clone(), section, t)),
        );
    }
    let opts = if args.pokerkit {
        ReplayOptions {
            odd_chips: Some(OddChips::FirstWinner),
            short_big_blind: Some(ShortBigBlind::Posted),
        }
    } else {
        ReplayOptions::default()
    };
    let mut out = std::io::stdout().lock();
    let (mut checked, mut differ) = (0usize, 0usize);
    for (name, section, t) in &hands {
        let r = replay(t, opts)
            .map_err(|e| super::bad_input(format!("{name}: hand {section}: {e}")))?;
        let label = r.hand.map_or_else(|| section.clone(), |h| h.to_string());
        let agrees = match (&r.expected, args.check) {
            (Some(exp), true) => {
                checked += 1;
                let ok = *exp == r.finishing_stacks;
                differ += usize::from(!ok);
                Some(ok)
            }
            (None, true) => {
                return Err(super::bad_input(format!(
                    "{name}: hand {section}: --check needs a finishing_stacks field"
                )))
            }
            _ => None,
        };
        if args.json {
            let v = serde_json::json!({
                "hand": label,
                "finishing_stacks": r.finishing_stacks,
                "expected": r.expected,
                "agrees": agrees,
            });
            writeln!(out, "{v}")?;
        } else {
            let stacks: Vec<String> = r
                .finishing_stacks
                .iter()
                .enumerate()
                .map(|(i, s)| format!("p{} {s}", i + 1))
                .collect();
            let verdict = match agrees {
                Some(true) => "  (matches finishing_stacks)".to_string(),
                Some(false) => format!(
                    "  (DIFFERS from finishing_stacks {:?})",
                    r.expected.as_deref().unwrap_or_default()
                ),
                None => String::new(),
            };
            writeln!(out, "hand {label}: {}{verdict}", stacks.join(", "))?;
        }
    }
    if args.check {
        if differ > 0 {
            anyhow::bail!(
                "{differ} of {checked} hands end with other stacks than the file's \
                 finishing_stacks"
            );
        }
        let _ = writeln!(
            std::io::stderr(),
            "{checked} hands checked, all match finishing_stacks"
        );
    }
    Ok(())
}
