//! `cardsim stats`: player statistics over PHH hand histories (files,
//! `.phhs`, directories, patterns), one row per player. Hands are read one
//! section at a time while the previous batch is replayed on every worker,
//! so memory holds two batches and one accumulator per player, never the
//! hands. Counts are integers, so the output is the same bytes for any
//! `-j`. Definitions: docs/stats.md.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use rayon::prelude::*;

use crate::holdem::phh::fields::Fields;
use crate::holdem::phh::stream::{names, parse_piece, seat_numbers, Pieces, Span};
use crate::holdem::phh::{replay_fields, Outcome, PhhError, ReplayOptions};
use crate::holdem::stats::{allin_equity, report, Players};
use crate::holdem::table::pots::OddChips;
use crate::holdem::table::ShortBigBlind;
use crate::sim::lock::acquire_all;
use crate::sim::runner::{check_distinct, start_pool, worker_threads, RunError};
use crate::sim::sink::{stage_all, Destination};

#[derive(Debug, Args)]
#[command(after_help = "Examples:
  cardsim stats hands.phhs
  cardsim stats phh/ 'more/*.phhs' -o players.csv --json players.json
  cardsim stats data/ -j 1 --top 50

Every statistic's definition: docs/stats.md in the repository.")]
pub struct StatsArgs {
    /// `.phh` (one hand) or `.phhs` (many) files, directories of them (walked
    /// to any depth in name order, hidden ones skipped), patterns with `*` and `?` in the file name, or `-`
    /// for stdin.
    #[arg(value_name = "HISTORIES", required = true)]
    pub files: Vec<PathBuf>,
    /// Worker threads [default: all cores]. Never changes the output.
    #[arg(long, short = 'j', value_name = "T", value_parser = super::numbers::threads)]
    pub threads: Option<u64>,
    /// One CSV row per player (`-` for stdout). Written under a temporary
    /// name and renamed when complete.
    #[arg(long, short = 'o', value_name = "PATH")]
    pub out: Option<PathBuf>,
    /// The counts and every player as JSON (`-` for stdout).
    #[arg(long, value_name = "PATH")]
    pub json: Option<PathBuf>,
    /// Players shown in the table (most hands first); 0 shows all.
    #[arg(long, default_value_t = 20, value_name = "N",
          value_parser = super::numbers::non_negative)]
    pub top: u64,
    /// PokerKit's switches (odd chips to the first winner, a short big blind
    /// matched only as posted), whatever the files say.
    #[arg(long)]
    pub pokerkit: bool,
    /// Print nothing on stderr but errors, and no table.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// Sections read per batch: a batch is replayed while the next is read.
/// A batch's text is about a megabyte for the dataset's hands: enough work
/// to share among the cores, and its buffers, touched for the first time,
/// cost fewer page faults than 4,096 sections' (3.6% of a `-j 1` run).
const BATCH: usize = 1024;

/// Refusals shown by name (the rest are counted by cause).
const SHOWN_REFUSALS: usize = 5;

/// What the hands read so far add up to.
#[derive(Default)]
struct Tally {
    players: Players,
    hands: u64,
    replayed: u64,
    settled: u64,
    undetermined: u64,
    incomplete: u64,
    refused: BTreeMap<String, u64>,
    /// The first refusals in reading order: (hand number, line).
    first_refused: Vec<(u64, String)>,
}

impl Tally {
    fn merge(mut self, o: Tally) -> Tally {
        self.players.merge(o.players);
        self.hands += o.hands;
        self.replayed += o.replayed;
        self.settled += o.settled;
        self.undetermined += o.undetermined;
        self.incomplete += o.incomplete;
        for (cause, k) in o.refused {
            *self.refused.entry(cause).or_default() += k;
        }
        self.first_refused.extend(o.first_refused);
        self.first_refused.sort();
        self.first_refused.truncate(SHOWN_REFUSALS);
        self
    }

    fn refused_total(&self) -> u64 {
        self.refused.values().sum()
    }
}

/// One section waiting to be replayed.
struct Section {
    /// Its number in reading order (for the order of refusals shown).
    ordinal: u64,
    file: usize,
    /// Its name and where its text lies in [`Batch::text`].
    span: Span,
}

/// Sections read together, their texts in one buffer.
#[derive(Default)]
struct Batch {
    text: String,
    sections: Vec<Section>,
}

/// The sections of every input in order, read lazily.
struct Reader {
    files: Vec<PathBuf>,
    next_file: usize,
    current: Option<Pieces<Box<dyn Read + Send>>>,
    ordinal: u64,
}

impl Reader {
    /// The input, unbuffered: [`Pieces`] reads it in large blocks.
    fn open(path: &Path) -> anyhow::Result<Box<dyn Read + Send>> {
        if path == Path::new("-") {
            return Ok(Box::new(io::stdin()));
        }
        let f = File::open(path)
            .map_err(|e| super::bad_input(format!("cannot read '{}': {e}", path.display())))?;
        Ok(Box::new(f))
    }

    /// Refills `out` with up to `max` sections, fewer only at the end of
    /// the inputs. `out` keeps its buffers from the batch before: a batch
    /// is megabytes of text, and growing a new one each time cost page
    /// faults and copies as large as the text itself.
    fn fill(&mut self, out: &mut Batch, max: usize) -> anyhow::Result<()> {
        out.text.clear();
        out.sections.clear();
        out.sections.reserve(max);
        while out.sections.len() < max {
            let Some(pieces) = self.current.as_mut() else {
                let Some(path) = self.files.get(self.next_file) else {
                    break;
                };
                self.current = Some(Pieces::new(Reader::open(path)?));
                self.next_file += 1;
                continue;
            };
            match pieces.next_into(&mut out.text) {
                Some(span) => {
                    out.sections.push(Section {
                        ordinal: self.ordinal,
                        file: self.next_file - 1,
                        span,
                    });
                    self.ordinal += 1;
                }
                None => {
                    if let Some(e) = pieces.error.take() {
                        let path = &self.files[self.next_file - 1];
                        return Err(super::bad_input(format!(
                            "cannot read '{}': {e}",
                            path.display()
                        )));
                    }
                    self.current = None;
                }
            }
        }
        Ok(())
    }
}

/// Each seat's player: the `players` field, else `seat K` from the
/// `seats` field, else the PHH name `pK`.
fn seat_names<'t>(t: &'t Fields, n: usize) -> Result<Vec<Cow<'t, str>>, PhhError> {
    if let Some(p) = names(t, "players")? {
        if p.len() != n {
            return Err(PhhError::Field {
                field: "players",
                why: format!("{} names for {n} players", p.len()),
            });
        }
        return Ok(p.into_iter().map(Cow::Borrowed).collect());
    }
    Ok(match seat_numbers(t).filter(|s| s.len() == n) {
        Some(seats) => seats
            .iter()
            .map(|k| Cow::Owned(format!("seat {k}")))
            .collect(),
        None => (1..=n).map(|k| Cow::Owned(format!("p{k}"))).collect(),
    })
}

/// A hand's replay and its seats' players.
fn read_hand<'t>(
    t: &'t Fields,
    opts: ReplayOptions,
) -> Result<(crate::holdem::phh::Replay, Vec<Cow<'t, str>>), PhhError> {
    let r = replay_fields(t, opts)?;
    let names = seat_names(t, r.state.seats().len())?;
    Ok((r, names))
}

/// Replays one section and adds it to `tally`.
fn add_section(tally: &mut Tally, text: &str, s: &Section, files: &[PathBuf], opts: ReplayOptions) {
    tally.hands += 1;
    let fields = s
        .span
        .text
        .as_ref()
        .map_err(Clone::clone)
        .and_then(|range| parse_piece(&text[range.clone()]));
    match fields
        .as_ref()
        .map_err(Clone::clone)
        .and_then(|t| read_hand(t, opts))
    {
        Ok((r, names)) => {
            let won = match r.outcome {
                Outcome::Replayed => {
                    tally.replayed += 1;
                    Some(&r.won[..])
                }
                Outcome::Settled => {
                    tally.settled += 1;
                    Some(&r.won[..])
                }
                Outcome::Undetermined { .. } => {
                    tally.undetermined += 1;
                    None
                }
                Outcome::Incomplete { .. } => {
                    tally.incomplete += 1;
                    None
                }
            };
            let equity = won.and_then(|_| allin_equity(&r.state));
            tally
                .players
                .add_hand(&r.state, &names, won, equity.as_ref());
        }
        Err(e) => {
            *tally.refused.entry(e.cause()).or_default() += 1;
            if tally.first_refused.len() < SHOWN_REFUSALS {
                let line = format!("{}: hand {}: {e}", files[s.file].display(), s.span.name);
                tally.first_refused.push((s.ordinal, line));
            }
        }
    }
}

fn replay_batch(batch: &Batch, files: &[PathBuf], opts: ReplayOptions) -> Tally {
    batch
        .sections
        .par_iter()
        .fold(Tally::default, |mut t, s| {
            add_section(&mut t, &batch.text, s, files, opts);
            t
        })
        .reduce(Tally::default, Tally::merge)
}

/// The outputs, resolved, told apart and locked before any hand is read.
struct Outputs {
    csv: Option<Destination>,
    json: Option<Destination>,
    _locks: Vec<crate::sim::lock::OutputLock>,
}

fn resolve_outputs(args: &StatsArgs) -> Result<Outputs, RunError> {
    let resolve = |flag: &str, p: &Option<PathBuf>| {
        p.as_deref()
            .map(|p| {
                Destination::resolve(p).map_err(|e| {
                    RunError::Input(format!("cannot write {flag} '{}': {e}", p.display()))
                })
            })
            .transpose()
    };
    let csv = resolve("--out", &args.out)?;
    let json = resolve("--json", &args.json)?;
    check_distinct(&[("--out", csv.as_ref()), ("--json", json.as_ref())])?;
    let owned: Vec<&Path> = [&csv, &json]
        .into_iter()
        .filter_map(|d| match d {
            Some(Destination::Atomic(p)) => Some(p.as_path()),
            _ => None,
        })
        .collect();
    let locks = acquire_all(owned).map_err(|e| RunError::Input(e.to_string()))?;
    Ok(Outputs {
        csv,
        json,
        _locks: locks,
    })
}

pub fn run(args: StatsArgs) -> anyhow::Result<()> {
    let mut files = Vec::new();
    for f in &args.files {
        files.extend(super::replay::expand(f)?);
    }
    if files
        .iter()
        .filter(|f| f.as_path() == Path::new("-"))
        .count()
        > 1
    {
        return Err(super::bad_input("'-' (stdin) can be read only once"));
    }
    for f in files.iter().filter(|f| f.as_path() != Path::new("-")) {
        if let Err(e) = std::fs::metadata(f) {
            return Err(super::bad_input(format!(
                "cannot read '{}': {e}",
                f.display()
            )));
        }
    }
    let outputs = resolve_outputs(&args)?;
    let opts = if args.pokerkit {
        ReplayOptions {
            odd_chips: Some(OddChips::FirstWinner),
            short_big_blind: Some(ShortBigBlind::Posted),
        }
    } else {
        ReplayOptions::default()
    };
    let threads = worker_threads(args.threads.map(|t| t as usize))?;
    let pool = start_pool(threads)?;
    let start = Instant::now();
    let mut reader = Reader {
        files: files.clone(),
        next_file: 0,
        current: None,
        ordinal: 0,
    };
    let mut tally = Tally::default();
    // Two batches in turn: one replayed while the other is read.
    let (mut batch, mut next) = (Batch::default(), Batch::default());
    reader.fill(&mut batch, BATCH)?;
    while !batch.sections.is_empty() {
        let (read, part) = pool.install(|| {
            rayon::join(
                || reader.fill(&mut next, BATCH),
                || replay_batch(&batch, &files, opts),
            )
        });
        tally = tally.merge(part);
        read?;
        std::mem::swap(&mut batch, &mut next);
    }
    let elapsed = start.elapsed();
    if tally.hands == 0 {
        return Err(super::bad_input("no hand found in the files given"));
    }
    let rows = tally.players.sorted();
    let mut staged_files = Vec::new();
    if let Some(d) = &outputs.csv {
        staged_files.push((dest_path(d, &args.out), report::csv(&rows)));
    }
    if let Some(d) = &outputs.json {
        staged_files.push((dest_path(d, &args.json), json(&tally, &rows, files.len())));
    }
    let staged = stage_all(staged_files)
        .map_err(|(p, e)| RunError::io(format!("cannot write {}", p.display()))(e))?;
    for (p, s) in staged {
        s.commit()
            .map_err(RunError::io(format!("cannot write {}", p.display())))?;
    }
    if !args.quiet {
        let to_stdout = [&outputs.csv, &outputs.json]
            .iter()
            .any(|d| matches!(d, Some(Destination::Stdout)));
        let text = summary_text(&tally, &rows, files.len(), elapsed, &args)?;
        if to_stdout {
            io::stderr().lock().write_all(&text)?;
        } else {
            let mut out = io::stdout().lock();
            out.write_all(&text)?;
            out.flush()?;
        }
    }
    Ok(())
}

/// The path an output is staged under: what the user typed (symlinks are
/// followed again by [`stage_all`]), `-` for stdout.
fn dest_path(d: &Destination, typed: &Option<PathBuf>) -> PathBuf {
    match d {
        Destination::Stdout => PathBuf::from("-"),
        _ => typed.clone().unwrap_or_default(),
    }
}

/// The counts line, the refusals, and the table.
fn summary_text(
    t: &Tally,
    rows: &[(&str, &crate::holdem::stats::PlayerStats)],
    files: usize,
    elapsed: std::time::Duration,
    args: &StatsArgs,
) -> io::Result<Vec<u8>> {
    let mut out = Vec::new();
    let secs = elapsed.as_secs_f64();
    writeln!(
        out,
        "{} hands in {files} file(s): {} replayed, {} settled, {} undetermined, {} incomplete, \
         {} refused; {} players ({:.2} s, {:.0} hands/s)",
        t.hands,
        t.replayed,
        t.settled,
        t.undetermined,
        t.incomplete,
        t.refused_total(),
        rows.len(),
        secs,
        t.hands as f64 / secs.max(1e-9)
    )?;
    for (cause, k) in &t.refused {
        writeln!(out, "  refused {k}: {cause}")?;
    }
    for (_, line) in &t.first_refused {
        writeln!(out, "  {line}")?;
    }
    if t.undetermined + t.incomplete > 0 {
        writeln!(
            out,
            "  undetermined and incomplete hands count in the play statistics, not in the \
             results (docs/stats.md)"
        )?;
    }
    if !rows.is_empty() {
        report::write_table(&mut out, rows, args.top as usize)?;
    }
    Ok(out)
}

/// The JSON output: the counts of hands by outcome and every player.
fn json(t: &Tally, rows: &[(&str, &crate::holdem::stats::PlayerStats)], files: usize) -> Vec<u8> {
    let v = serde_json::json!({
        "format": "cardsim-stats/1",
        "version": env!("CARGO_PKG_VERSION"),
        "files": files,
        "hands": {
            "read": t.hands,
            "replayed": t.replayed,
            "settled": t.settled,
            "undetermined": t.undetermined,
            "incomplete": t.incomplete,
            "refused": t.refused_total(),
            "refused_by_cause": t.refused,
        },
        "players": rows.iter().map(|(n, p)| report::json_player(n, p)).collect::<Vec<_>>(),
    });
    let mut bytes = serde_json::to_vec_pretty(&v).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}
