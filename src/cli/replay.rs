//! `cardsim replay`: replays PHH hand histories through the table engine,
//! every hand of every file given: each is replayed, settled from the
//! file's winnings, undetermined, or refused with one line naming its file
//! and section; a summary counts them by cause.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::Args;

use crate::holdem::phh::{
    parse_sections, replay, split_sections, Outcome, PhhError, Replay, ReplayOptions, Verdict,
};
use crate::holdem::table::pots::OddChips;
use crate::holdem::table::ShortBigBlind;

#[derive(Debug, Args)]
#[command(after_help = "Examples:
  cardsim replay hand.phh
  cardsim replay hands.phhs --check
  cardsim replay phh/ --json
  cardsim replay 'data/*.phhs' other.phhs")]
pub struct ReplayArgs {
    /// `.phh` (one hand) or `.phhs` (many) files, directories of them
    /// (walked to any depth in name order, hidden ones skipped), patterns with `*` and `?` in the file
    /// name, or `-` for stdin.
    #[arg(value_name = "FILE|DIR", required = true)]
    pub files: Vec<PathBuf>,
    /// Compare each hand with its `finishing_stacks` (else its
    /// `winnings`): exit 1 when any differs by more than a rake.
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

/// Whether `name` matches `pattern` (`*` any run, `?` one character).
fn matches(pattern: &[char], name: &[char]) -> bool {
    match pattern.split_first() {
        None => name.is_empty(),
        Some(('*', rest)) => (0..=name.len()).any(|k| matches(rest, &name[k..])),
        Some((&c, rest)) => name
            .split_first()
            .is_some_and(|(&d, tail)| (c == '?' || c == d) && matches(rest, tail)),
    }
}

/// The `.phh`/`.phhs` files under `dir` and its sub-directories, each
/// directory's entries in name order (a clone of the PHH dataset nests its
/// files by site, stake and blinds). Hidden directories (`.git`) and
/// symbolic links to directories are not entered, so a walk always ends.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> anyhow::Result<()> {
    let mut entries: Vec<std::fs::DirEntry> = std::fs::read_dir(dir)
        .map_err(|e| super::bad_input(format!("cannot read '{}': {e}", dir.display())))?
        .filter_map(Result::ok)
        .collect();
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for e in entries {
        let path = e.path();
        let real_dir = e.file_type().is_ok_and(|t| t.is_dir());
        if real_dir {
            if !e.file_name().to_string_lossy().starts_with('.') {
                walk(&path, out)?;
            }
        } else if path.extension().is_some_and(|x| x == "phh" || x == "phhs") {
            out.push(path);
        }
    }
    Ok(())
}

/// The files one argument names: itself, the `.phh`/`.phhs` files under a
/// directory ([`walk`]), or the files a pattern in its last part matches.
pub(super) fn expand(path: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let name = path.display().to_string();
    let listing = |dir: &Path, keep: &dyn Fn(&Path) -> bool| -> anyhow::Result<Vec<PathBuf>> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(|e| super::bad_input(format!("cannot read '{}': {e}", dir.display())))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| keep(p))
            .collect();
        files.sort();
        Ok(files)
    };
    if path.is_dir() {
        let mut files = Vec::new();
        walk(path, &mut files)?;
        if files.is_empty() {
            return Err(super::bad_input(format!(
                "'{name}' holds no .phh or .phhs file"
            )));
        }
        return Ok(files);
    }
    let file_name = path.file_name().map(|f| f.to_string_lossy().into_owned());
    match file_name {
        Some(f) if !path.exists() && (f.contains('*') || f.contains('?')) => {
            let pattern: Vec<char> = f.chars().collect();
            let dir = match path.parent() {
                Some(d) if !d.as_os_str().is_empty() => d,
                _ => Path::new("."),
            };
            let files = listing(dir, &|p| {
                p.is_file()
                    && p.file_name().is_some_and(|n| {
                        matches(&pattern, &n.to_string_lossy().chars().collect::<Vec<_>>())
                    })
            })?;
            if files.is_empty() {
                return Err(super::bad_input(format!("no file matches '{name}'")));
            }
            Ok(files)
        }
        _ => Ok(vec![path.to_path_buf()]),
    }
}

fn utf8(bytes: Vec<u8>, name: &str) -> anyhow::Result<String> {
    String::from_utf8(bytes)
        .map_err(|_| super::bad_input(format!("{name}: not UTF-8 text (a PHH file is TOML)")))
}

fn read(p: &Path) -> anyhow::Result<String> {
    let name = p.display().to_string();
    if name == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .context("cannot read stdin")?;
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(super::bad_input("stdin: more than 1 GiB of hand histories"));
        }
        return utf8(bytes, "stdin");
    }
    let len = std::fs::metadata(p)
        .map_err(|e| super::bad_input(format!("cannot read '{name}': {e}")))?
        .len();
    if len > MAX_FILE_BYTES {
        return Err(super::bad_input(format!("'{name}' is larger than 1 GiB")));
    }
    let bytes =
        std::fs::read(p).map_err(|e| super::bad_input(format!("cannot read '{name}': {e}")))?;
    utf8(bytes, &name)
}

/// The hands of one text: each section's table or why it cannot be read.
/// A text whose TOML fails as a whole is cut at its section headers so one
/// bad section does not hide the others.
fn hands_of(text: &str) -> Vec<(String, Result<toml::Table, PhhError>)> {
    match parse_sections(text) {
        Ok(hands) => hands.into_iter().map(|(s, t)| (s, Ok(t))).collect(),
        Err(e) => match (&e, split_sections(text)) {
            (PhhError::Toml(_), Some(pieces)) => pieces,
            _ => vec![("1".to_string(), Err(e))],
        },
    }
}

/// Counts for the summary.
#[derive(Default)]
struct Tally {
    hands: usize,
    outcomes: BTreeMap<&'static str, usize>,
    refused: BTreeMap<String, usize>,
    checked: usize,
    differ: usize,
    raked: usize,
    unchecked: usize,
    /// Rake by the unit's decimal places (amounts of different units are
    /// not added together).
    rake: BTreeMap<u32, u64>,
    first_refusal: Option<String>,
}

pub fn run(args: ReplayArgs) -> anyhow::Result<()> {
    let mut files = Vec::new();
    for f in &args.files {
        files.extend(expand(f)?);
    }
    let opts = if args.pokerkit {
        ReplayOptions {
            odd_chips: Some(OddChips::FirstWinner),
            short_big_blind: Some(ShortBigBlind::Posted),
        }
    } else {
        ReplayOptions::default()
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut tally = Tally::default();
    for path in &files {
        let name = path.display().to_string();
        let text = read(path)?;
        for (section, table) in hands_of(&text) {
            tally.hands += 1;
            let result = table.and_then(|t| replay(&t, opts));
            match result {
                Ok(r) => report(&mut out, &mut tally, &args, &name, &section, &r)?,
                Err(e) => {
                    let line = format!("{name}: hand {section}: {e}");
                    *tally.refused.entry(e.cause()).or_default() += 1;
                    if args.json {
                        let v = serde_json::json!({
                            "file": name,
                            "section": section,
                            "outcome": "refused",
                            "cause": e.cause(),
                            "error": e.to_string(),
                        });
                        writeln!(out, "{v}")?;
                    } else {
                        writeln!(out, "{line}  (refused)")?;
                    }
                    tally.first_refusal.get_or_insert(line);
                }
            }
        }
    }
    out.flush()?;
    drop(out);
    finish(&args, &tally)
}

/// The JSON text of amounts in the hand's unit: numbers written exactly as
/// decimals (`200.30`), `inf` as the string "inf".
fn json_amounts(r: &Replay, v: &[u64]) -> String {
    let items: Vec<String> = v
        .iter()
        .map(|&u| {
            let a = r.amount(u);
            if a == "inf" {
                "\"inf\"".into()
            } else {
                a
            }
        })
        .collect();
    format!("[{}]", items.join(","))
}

fn report(
    out: &mut impl Write,
    tally: &mut Tally,
    args: &ReplayArgs,
    name: &str,
    section: &str,
    r: &Replay,
) -> anyhow::Result<()> {
    let label = r
        .hand
        .map_or_else(|| section.to_string(), |h| h.to_string());
    *tally.outcomes.entry(r.outcome.key()).or_default() += 1;
    let determined = r.outcome.is_determined();
    let stacks_v = r.stacks_verdict();
    let verdict = if determined {
        stacks_v.or_else(|| r.winnings_verdict().map(|w| w.0))
    } else {
        None
    };
    if let Some(rake) = determined.then(|| r.rake()).flatten() {
        *tally.rake.entry(r.decimals).or_default() += rake;
    }
    let agrees = match (verdict, args.check) {
        (Some(v), true) => {
            tally.checked += 1;
            match v {
                Verdict::Match => {}
                Verdict::Rake(_) => tally.raked += 1,
                Verdict::Differs => tally.differ += 1,
            }
            Some(v != Verdict::Differs)
        }
        (None, true) => {
            tally.unchecked += 1;
            None
        }
        _ => None,
    };
    let rake = match verdict {
        Some(Verdict::Rake(u)) => Some(u),
        Some(Verdict::Match) => Some(0),
        _ => None,
    };
    if args.json {
        let (convention, winnings_agree) = match r.winnings_verdict() {
            Some((v, c)) => (Some(c.key()), Some(v != Verdict::Differs)),
            None => (None, None),
        };
        let mut fields = vec![
            format!("\"hand\":{}", serde_json::Value::String(label)),
            format!("\"file\":{}", serde_json::Value::String(name.into())),
            format!("\"section\":{}", serde_json::Value::String(section.into())),
            format!("\"outcome\":\"{}\"", r.outcome.key()),
            format!(
                "\"finishing_stacks\":{}",
                json_amounts(r, &r.finishing_stacks)
            ),
            format!(
                "\"expected\":{}",
                r.expected
                    .as_ref()
                    .map_or("null".into(), |e| json_amounts(r, e))
            ),
            format!("\"won\":{}", json_amounts(r, &r.won)),
            format!(
                "\"winnings\":{}",
                r.winnings
                    .as_ref()
                    .map_or("null".into(), |w| json_amounts(r, w))
            ),
            format!(
                "\"agrees\":{}",
                agrees.map_or("null".into(), |a| a.to_string())
            ),
            format!("\"rake\":{}", rake.map_or("null".into(), |u| r.amount(u))),
            format!(
                "\"winnings_convention\":{}",
                convention.map_or("null".into(), |c| format!("\"{c}\""))
            ),
            format!(
                "\"winnings_agree\":{}",
                winnings_agree.map_or("null".into(), |a| a.to_string())
            ),
        ];
        fields.push(format!("\"inferred\":{}", r.inferred));
        fields.push(format!("\"all_in_reading\":{}", r.all_in_reading));
        if let Outcome::Undetermined { pot, players } = &r.outcome {
            fields.push(format!("\"undetermined_pot\":{}", r.amount(*pot)));
            let p: Vec<String> = players.iter().map(|p| format!("\"p{}\"", p + 1)).collect();
            fields.push(format!("\"undetermined_players\":[{}]", p.join(",")));
        }
        if let Outcome::Incomplete { to_act, .. } = &r.outcome {
            fields.push(format!("\"to_act\":\"p{}\"", to_act + 1));
        }
        writeln!(out, "{{{}}}", fields.join(","))?;
        return Ok(());
    }
    let stacks: Vec<String> = r
        .finishing_stacks
        .iter()
        .enumerate()
        .map(|(i, &s)| {
            if s == crate::holdem::phh::INF {
                // An `inf` stack: its change is what the hand tells.
                let st = &r.state;
                let (end, start) = (st.seats()[i].stack, st.config().stacks[i]);
                let sign = if end >= start { '+' } else { '-' };
                format!("p{} inf ({sign}{})", i + 1, r.amount(end.abs_diff(start)))
            } else {
                format!("p{} {}", i + 1, r.amount(s))
            }
        })
        .collect();
    let mut line = format!("hand {label}: {}", stacks.join(", "));
    if let Outcome::Undetermined { pot, players } = &r.outcome {
        let p: Vec<String> = players.iter().map(|p| format!("p{}", p + 1)).collect();
        line = format!(
            "hand {label}: undetermined: a pot of {} only unknown cards decide ({})",
            r.amount(*pot),
            p.join(", ")
        );
    }
    if let Outcome::Incomplete { to_act, pot } = &r.outcome {
        line = format!(
            "hand {label}: incomplete: the history stops with p{} to act, {} in the pot, \
             and the file records no result",
            to_act + 1,
            r.amount(*pot)
        );
    }
    if r.outcome == Outcome::Settled {
        line.push_str("  (settled from winnings)");
    }
    if r.inferred > 0 {
        line.push_str(&format!(
            "  ({} omitted action(s) supplied as PokerKit does)",
            r.inferred
        ));
    }
    let against = if stacks_v.is_some() {
        "finishing_stacks"
    } else {
        "winnings"
    };
    match (agrees, verdict) {
        (Some(true), Some(Verdict::Rake(u))) => line.push_str(&format!(
            "  (matches {against} after a rake of {})",
            r.amount(u)
        )),
        (Some(true), _) => line.push_str(&format!("  (matches {against})")),
        (Some(false), _) => {
            let exp = if stacks_v.is_some() {
                r.expected.as_deref().unwrap_or_default()
            } else {
                r.winnings.as_deref().unwrap_or_default()
            };
            let exp: Vec<String> = exp.iter().map(|&u| r.amount(u)).collect();
            line.push_str(&format!("  (DIFFERS from {against} [{}])", exp.join(", ")));
        }
        (None, _) => {}
    }
    writeln!(out, "{line}")?;
    Ok(())
}

/// The summary (on stderr, when more than one hand was read) and the exit
/// status: 2 when a hand was refused, 1 when a check failed.
fn finish(args: &ReplayArgs, t: &Tally) -> anyhow::Result<()> {
    let mut err = std::io::stderr().lock();
    let refused: usize = t.refused.values().sum();
    if t.hands > 1 {
        let outcomes: Vec<String> = ["replayed", "settled", "undetermined", "incomplete"]
            .iter()
            .map(|k| format!("{} {k}", t.outcomes.get(k).copied().unwrap_or(0)))
            .collect();
        let _ = writeln!(
            err,
            "{} hands: {}, {refused} refused",
            t.hands,
            outcomes.join(", ")
        );
        for (cause, k) in &t.refused {
            let _ = writeln!(err, "  refused {k}: {cause}");
        }
        for (&d, &u) in &t.rake {
            if u > 0 {
                let _ = writeln!(
                    err,
                    "rake in the files' unit (hands with {d} decimal places): {}",
                    crate::holdem::phh::amount::format_units(u, d)
                );
            }
        }
    }
    if args.check {
        if t.differ > 0 {
            anyhow::bail!(
                "{} of {} hands end with other stacks than the file's \
                 finishing_stacks",
                t.differ,
                t.checked
            );
        }
        if refused == 0 {
            let _ = writeln!(
                err,
                "{} hands checked, all match finishing_stacks or winnings{}{}",
                t.checked,
                if t.raked > 0 {
                    format!(" ({} after a rake)", t.raked)
                } else {
                    String::new()
                },
                if t.unchecked > 0 {
                    format!("; {} with nothing to check against", t.unchecked)
                } else {
                    String::new()
                }
            );
        }
    }
    if refused == 1 && t.hands == 1 {
        return Err(super::bad_input(
            t.first_refusal.clone().unwrap_or_default(),
        ));
    }
    if refused > 0 {
        return Err(super::bad_input(format!(
            "{refused} of {} hands refused",
            t.hands
        )));
    }
    Ok(())
}
