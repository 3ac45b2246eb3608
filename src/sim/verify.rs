//! Checking what a summary vouches for, before anything trusts it: the
//! summary itself (sealed by cardsim, and consistent: statistics that a
//! run could have produced, games that its shard covers) and every file it
//! names (rows, bytes, BLAKE3, and the games in the `game` column). `merge`
//! runs these checks on every shard before joining anything, and `cardsim
//! verify` runs them on any summary.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use super::output::{resolve_recorded, FileRecord, OutputPart, Summary};
use super::runner::{RunError, Shard};
use super::sink::{hex_digest, read_bounded};
use super::stats::Accumulator;

/// Summaries larger than this are not read (a real one is a few MB).
const MAX_SUMMARY_BYTES: u64 = 256 << 20;

/// Reads a summary and checks its seal and its consistency.
pub fn read_summary(path: &Path) -> Result<Summary, RunError> {
    let bad = |why: String| RunError::Input(format!("summary {}: {why}", path.display()));
    let bytes = read_bounded(path, MAX_SUMMARY_BYTES).map_err(bad)?;
    let text = String::from_utf8(bytes).map_err(|_| bad("is not UTF-8 text".into()))?;
    let summary = Summary::unseal(&text).map_err(bad)?;
    check_consistency(&summary).map_err(|why| bad(format!("is inconsistent: {why}")))?;
    Ok(summary)
}

/// The invariants of every summary cardsim writes.
pub fn check_consistency(s: &Summary) -> Result<(), String> {
    let games = s.identity.games;
    if s.first_game >= s.end_game || s.end_game > games {
        return Err(format!(
            "games {}..{} are not a range of a run of {games}",
            s.first_game, s.end_game
        ));
    }
    let expected = match s.shard {
        Some(sh) if sh.count == 0 || sh.index >= sh.count => {
            return Err(format!("shard {}/{} does not exist", sh.index, sh.count));
        }
        Some(sh) => Shard {
            index: sh.index,
            count: sh.count,
        }
        .range(games),
        None => 0..games,
    };
    if expected != (s.first_game..s.end_game) {
        return Err(format!(
            "it covers games {}..{}, but its shard holds {}..{}",
            s.first_game, s.end_game, expected.start, expected.end
        ));
    }
    if s.state.len() != s.metrics.len() {
        return Err("its metrics and their states differ in number".into());
    }
    let played = s.end_game - s.first_game;
    for (st, m) in s.state.iter().zip(&s.metrics) {
        if st.name != m.name {
            return Err(format!("metric {} has the state of {}", m.name, st.name));
        }
        let acc = Accumulator::from_state(st.kind, st)?;
        // Every value stored is at least the metric's declared minimum
        // (in stored, scaled units): a summary whose kind was edited to a
        // higher floor than its values contradicts itself.
        let floor = st.kind.min().saturating_mul(i64::from(st.kind.scale()));
        if acc.count > 0 && st.min < floor {
            return Err(format!(
                "metric {} has values below its kind's minimum ({} < {floor})",
                st.name, st.min
            ));
        }
        // A game of several parts (a duplicate deal group of hands)
        // observes a metric once per part.
        let parts = crate::holdem::duplicate::parts_per_game(&s.identity);
        if acc.count > played.saturating_mul(parts) {
            return Err(format!(
                "metric {} counts {} values in {played} games",
                st.name, acc.count
            ));
        }
        if &acc.summarize(&st.name) != m {
            return Err(format!(
                "the figures of metric {} are not those of its state",
                st.name
            ));
        }
    }
    if let Some(csv) = &s.csv {
        if csv.rows != played {
            return Err(format!("its CSV has {} rows for {played} games", csv.rows));
        }
    }
    if let Some(bundle) = &s.bundle {
        if bundle.rows > played {
            return Err(format!(
                "its bundle has {} sections for {played} games",
                bundle.rows
            ));
        }
    }
    Ok(())
}

/// What a file holds, as read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scanned {
    pub rows: u64,
    pub bytes: u64,
    pub blake3: String,
}

/// A reader that hashes and counts what passes through it.
struct Hashing<R> {
    inner: R,
    hasher: blake3::Hasher,
    bytes: u64,
}

impl<R: Read> Read for Hashing<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hasher.update(&buf[..n]);
        self.bytes += n as u64;
        Ok(n)
    }
}

/// Reads a file of `part` whole: its hash and length, and its rows, each
/// checked against the games `[first, end)` (the CSV: one row per game in
/// order; the side CSV: rows in game order; a `.phhs` bundle: sections
/// `[game + 1]` in order).
pub fn scan(path: &Path, part: OutputPart, first: u64, end: u64) -> Result<Scanned, String> {
    if part == OutputPart::Csv && is_parquet(path) {
        return scan_parquet(path, first);
    }
    let file = File::open(path).map_err(|e| format!("cannot be read ({e})"))?;
    let mut reader = Hashing {
        inner: BufReader::with_capacity(1 << 20, file),
        hasher: blake3::Hasher::new(),
        bytes: 0,
    };
    let mut rows = 0u64;
    let mut last: Option<u64> = None;
    let mut take = |game: u64, rows: &mut u64| -> Result<(), String> {
        let ok = match part {
            OutputPart::Csv => game == first + *rows,
            OutputPart::SideCsv | OutputPart::Bundle => {
                (first..end).contains(&game) && last.is_none_or(|l| l <= game)
            }
        } && !(part == OutputPart::Bundle && last == Some(game));
        if !ok {
            return Err(format!(
                "row {} is game {game}, out of order or outside games {first}..{end}",
                *rows + 1
            ));
        }
        last = Some(game);
        *rows += 1;
        Ok(())
    };
    match part {
        OutputPart::Csv | OutputPart::SideCsv => {
            let mut csv = csv::ReaderBuilder::new()
                .has_headers(true)
                .flexible(true)
                .from_reader(&mut reader);
            let mut record = csv::ByteRecord::new();
            loop {
                match csv.read_byte_record(&mut record) {
                    Ok(false) => break,
                    Ok(true) => {
                        let game = record
                            .get(0)
                            .and_then(|f| std::str::from_utf8(f).ok())
                            .and_then(|f| f.parse::<u64>().ok())
                            .ok_or_else(|| format!("row {} has no game number", rows + 1))?;
                        take(game, &mut rows)?;
                    }
                    Err(e) => return Err(format!("is not a readable CSV ({e})")),
                }
            }
        }
        OutputPart::Bundle => {
            let mut lines = BufReader::new(&mut reader);
            let mut line = Vec::new();
            loop {
                line.clear();
                let n = lines
                    .read_until(b'\n', &mut line)
                    .map_err(|e| format!("cannot be read ({e})"))?;
                if n == 0 {
                    break;
                }
                let text = line.strip_suffix(b"\n").unwrap_or(&line);
                if let Some(num) = text.strip_prefix(b"[").and_then(|t| t.strip_suffix(b"]")) {
                    let section = std::str::from_utf8(num)
                        .ok()
                        .and_then(|t| t.parse::<u64>().ok())
                        .filter(|&k| k >= 1)
                        .ok_or_else(|| format!("section {} has a bad header", rows + 1))?;
                    take(section - 1, &mut rows)?;
                }
            }
        }
    }
    io::copy(&mut reader, &mut io::sink()).map_err(|e| format!("cannot be read ({e})"))?;
    Ok(Scanned {
        rows,
        bytes: reader.bytes,
        blake3: hex_digest(&reader.hasher),
    })
}

/// Whether a file starts with Parquet's magic bytes.
pub fn is_parquet(path: &Path) -> bool {
    let mut magic = [0u8; 4];
    File::open(path)
        .and_then(|mut f| f.read_exact(&mut magic))
        .is_ok_and(|()| &magic == b"PAR1")
}

/// Reads a Parquet file of per-game rows: its hash and length, and its
/// `game` column, which must count up from `first`.
fn scan_parquet(path: &Path, first: u64) -> Result<Scanned, String> {
    use arrow_array::cast::AsArray;
    use arrow_array::types::Int64Type;
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    use parquet::arrow::ProjectionMask;

    let mut file = File::open(path).map_err(|e| format!("cannot be read ({e})"))?;
    let mut hasher = blake3::Hasher::new();
    let bytes = io::copy(&mut file, &mut super::sink::HashWriter(&mut hasher))
        .map_err(|e| format!("cannot be read ({e})"))?;
    let unreadable = |e: &dyn std::fmt::Display| format!("is not a readable Parquet file ({e})");
    let file = File::open(path).map_err(|e| format!("cannot be read ({e})"))?;
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| unreadable(&e))?;
    let at = builder
        .schema()
        .fields()
        .iter()
        .position(|f| f.name() == "game")
        .ok_or_else(|| "has no game column".to_string())?;
    let mask = ProjectionMask::roots(builder.parquet_schema(), [at]);
    let reader = builder
        .with_projection(mask)
        .build()
        .map_err(|e| unreadable(&e))?;
    let mut rows = 0u64;
    for batch in reader {
        let batch = batch.map_err(|e| unreadable(&e))?;
        let games = batch
            .column(0)
            .as_primitive_opt::<Int64Type>()
            .ok_or_else(|| "its game column is not int64".to_string())?;
        for g in games.iter() {
            if g.and_then(|g| u64::try_from(g).ok()) != Some(first + rows) {
                return Err(format!(
                    "row {} is not game {}: out of order or outside its games",
                    rows + 1,
                    first + rows
                ));
            }
            rows += 1;
        }
    }
    Ok(Scanned {
        rows,
        bytes,
        blake3: hex_digest(&hasher),
    })
}

/// Checks one file a summary names against what it vouches for; returns
/// its path, or `None` when the summary names no file for `part` (or the
/// output went to a stream and cannot be read back).
pub fn verify_file(
    summary_path: &Path,
    s: &Summary,
    part: OutputPart,
) -> Result<Option<PathBuf>, RunError> {
    let Some(record) = part.record(s) else {
        return Ok(None);
    };
    let FileRecord {
        rows,
        bytes,
        blake3,
        ..
    } = record;
    let recorded = record.recorded().map_err(|why| {
        RunError::Input(format!(
            "{}: its {} record: {why}",
            summary_path.display(),
            part.what()
        ))
    })?;
    let Some(recorded) = recorded else {
        return Ok(None);
    };
    let path = resolve_recorded(&recorded, summary_path);
    let refuse = |why: String| {
        RunError::Input(format!(
            "{}: its {} {} {why}",
            summary_path.display(),
            part.what(),
            path.display()
        ))
    };
    let got = scan(&path, part, s.first_game, s.end_game).map_err(refuse)?;
    if got.bytes != *bytes {
        return Err(refuse(format!(
            "has {} bytes, the summary vouches for {bytes} (truncated, extended or replaced)",
            got.bytes
        )));
    }
    if got.rows != *rows {
        return Err(refuse(format!(
            "has {} rows, the summary vouches for {rows}",
            got.rows
        )));
    }
    if got.blake3 != *blake3 {
        return Err(refuse(
            "is not the file the summary vouches for (its BLAKE3 differs: edited or replaced)"
                .into(),
        ));
    }
    Ok(Some(path))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::checkpoint::Checkpoint;
    use crate::sim::seal::Sealed as _;
    use proptest::prelude::*;

    /// A real summary (a small fishing run), sealed.
    fn valid_summary() -> &'static str {
        static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        TEXT.get_or_init(|| {
            let game = crate::fishing::FishingGame::new(crate::fishing::Rules::default());
            let config = crate::sim::RunConfig::new(300, 11);
            let mut s = crate::sim::run(&game, &config).unwrap().summary;
            String::from_utf8(s.seal().unwrap()).unwrap()
        })
    }

    /// What every parse of untrusted text must give: a value, or an error
    /// on one line.
    fn one_line<T>(r: Result<T, String>) -> Result<(), TestCaseError> {
        if let Err(e) = r {
            prop_assert!(!e.contains('\n'), "{e}");
            prop_assert!(!e.is_empty());
        }
        Ok(())
    }

    fn check_summary(text: &str) -> Result<(), String> {
        let s = Summary::unseal(text)?;
        check_consistency(&s)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(
            std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(64)
        ))]

        #[test]
        fn any_text_is_a_summary_or_a_one_line_error(text in "\\PC*") {
            one_line(check_summary(&text))?;
            one_line(Checkpoint::unseal(text.as_bytes()))?;
        }

        #[test]
        fn a_mutated_summary_is_refused_on_one_line(
            at in 0usize..100_000, byte in any::<u8>(), cut in any::<bool>()
        ) {
            let mut bytes = valid_summary().as_bytes().to_vec();
            let at = at % bytes.len();
            if cut { bytes.truncate(at) } else { bytes[at] = byte }
            let text = String::from_utf8_lossy(&bytes);
            let r = check_summary(&text);
            // Only a change that leaves the content equal (the same byte
            // written back, one blank for another) may still verify.
            if r.is_ok() {
                let as_json = |t: &str| serde_json::from_str::<serde_json::Value>(t).ok();
                prop_assert_eq!(as_json(&text), as_json(valid_summary()));
            }
            one_line(r)?;
        }
    }
}
