//! `cardsim replay`: replays PHH hand histories through the table engine.

use std::io::{Read, Write};
use std::path::PathBuf;

use anyhow::Context;
use clap::Args;

use crate::holdem::phh::{parse_all, replay, ReplayOptions};
use crate::holdem::table::pots::OddChips;
use crate::holdem::table::ShortBigBlind;

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// A `.phh` (one hand) or `.phhs` (many) file; `-` reads stdin.
    #[arg(value_name = "FILE")]
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

pub fn run(args: ReplayArgs) -> anyhow::Result<()> {
    let name = args.file.display().to_string();
    let text = if name == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .context("cannot read stdin")?;
        s
    } else {
        std::fs::read_to_string(&args.file)
            .map_err(|e| super::bad_input(format!("cannot read '{name}': {e}")))?
    };
    let hands = parse_all(&text).map_err(|e| super::bad_input(format!("{name}: {e}")))?;
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
    for (k, t) in hands.iter().enumerate() {
        let r = replay(t, opts)
            .map_err(|e| super::bad_input(format!("{name}: hand {}: {e}", k + 1)))?;
        let label = r
            .hand
            .map_or_else(|| format!("{}", k + 1), |h| h.to_string());
        let agrees = match (&r.expected, args.check) {
            (Some(exp), true) => {
                checked += 1;
                let ok = *exp == r.finishing_stacks;
                differ += usize::from(!ok);
                Some(ok)
            }
            (None, true) => {
                return Err(super::bad_input(format!(
                    "{name}: hand {}: --check needs a finishing_stacks field",
                    k + 1
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
        let _ = writeln!(
            std::io::stderr(),
            "{checked} hands checked, {} match finishing_stacks, {differ} differ",
            checked - differ
        );
        if differ > 0 {
            anyhow::bail!("{differ} of {checked} hands end with other stacks than the file's");
        }
    }
    Ok(())
}
