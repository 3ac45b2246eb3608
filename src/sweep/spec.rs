//! A sweep's spec: the game, its base options, and the cells to run (a
//! grid of every combination, or a list), read from TOML with `--set`
//! overrides, and the one-line errors that name the key at fault.

use super::SweepError;

/// One option value as the spec writes it.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Int(i64),
    Float(f64),
    Bool(bool),
    Str(String),
}

impl Value {
    /// The value as the command line and the folder names write it.
    pub fn text(&self) -> String {
        match self {
            Value::Int(i) => i.to_string(),
            Value::Float(f) => f.to_string(),
            Value::Bool(b) => b.to_string(),
            Value::Str(s) => s.clone(),
        }
    }

    /// The words this value adds to a game command for option `key`
    /// (snake_case): `--key VALUE`, a bare `--key` for true, nothing for
    /// false.
    pub fn flag_words(&self, key: &str) -> Vec<String> {
        let flag = format!("--{}", key.replace('_', "-"));
        match self {
            Value::Bool(true) => vec![flag],
            Value::Bool(false) => Vec::new(),
            other => vec![flag, other.text()],
        }
    }

    fn from_toml(key: &str, v: &toml::Value) -> Result<Value, SweepError> {
        match v {
            toml::Value::Integer(i) => Ok(Value::Int(*i)),
            toml::Value::Float(f) if f.is_finite() => Ok(Value::Float(*f)),
            toml::Value::Boolean(b) => Ok(Value::Bool(*b)),
            toml::Value::String(s) if s.is_empty() => Err(SweepError::Spec(format!(
                "key '{key}': an empty string is not an option value"
            ))),
            toml::Value::String(s) => Ok(Value::Str(s.clone())),
            _ => Err(SweepError::Spec(format!(
                "key '{key}': expected a number, true/false or a string, got {}",
                v.type_str()
            ))),
        }
    }
}

/// What a sweep runs: every cell is one run of `game` with the base
/// options and the cell's values of the swept keys.
#[derive(Clone, Debug, PartialEq)]
pub struct Spec {
    /// The game command: fishing, holdem, tienlen or solve.
    pub game: String,
    /// Games per cell (`--games`), unless `games` is swept.
    pub games: Option<u64>,
    pub seed: u64,
    /// Derive a seed per cell from `seed` and the cell's values
    /// ([`Spec::cell_seed`]) instead of one seed for all.
    pub seed_per_cell: bool,
    /// Options every cell gets, snake_case keys, in spec order.
    pub base: Vec<(String, Value)>,
    /// The swept keys (snake_case), in spec order: the parameter columns
    /// and the folder levels.
    pub keys: Vec<String>,
    /// Each cell's values, one per key.
    pub cells: Vec<Vec<Value>>,
}

/// The games a sweep can run.
pub const GAMES: [&str; 4] = ["fishing", "holdem", "tienlen", "solve"];

/// Options a spec may not set: the sweep chooses where each cell writes
/// and how it runs.
const RESERVED: [&str; 18] = [
    "out",
    "summary",
    "hist",
    "shard",
    "resume",
    "threads",
    "quiet",
    "progress",
    "embedded",
    "checkpoint_every",
    "pots",
    "phh",
    "phh_every",
    "deal",
    "game",
    "trace",
    "help",
    "format",
];

/// Names of the columns of `results.csv` that a parameter may not take.
pub const RESULT_COLUMNS: [&str; 13] = [
    "metric",
    "kind",
    "n",
    "mean",
    "ci95_low",
    "ci95_high",
    "sd",
    "min",
    "p50",
    "p90",
    "p99",
    "p999",
    "max",
];

/// Most cells a sweep may have.
pub const MAX_CELLS: usize = 100_000;

fn spec_err(msg: impl Into<String>) -> SweepError {
    SweepError::Spec(msg.into())
}

/// A key as the spec may write it (`card-limit` or `card_limit`), in
/// snake_case.
pub fn normal_key(key: &str) -> String {
    key.trim().replace('-', "_")
}

impl Spec {
    /// Reads a spec from TOML text, then applies `--set KEY=A,B,...`
    /// overrides in order.
    pub fn parse(text: &str, overrides: &[String]) -> Result<Spec, SweepError> {
        let table: toml::Table = toml::from_str(text).map_err(|e| {
            let line = e
                .span()
                .map(|s| text.get(..s.start).unwrap_or(text).lines().count().max(1));
            let msg = e.message().replace('\n', " ");
            match line {
                Some(l) => spec_err(format!("line {l}: {}", msg.trim())),
                None => spec_err(msg.trim().to_string()),
            }
        })?;
        let mut game = None;
        let mut games = None;
        let mut seed = crate::cli::sim_args::DEFAULT_SEED;
        let mut seed_per_cell = false;
        let mut base: Vec<(String, Value)> = Vec::new();
        let mut grid: Vec<(String, Vec<Value>)> = Vec::new();
        let mut list: Option<Vec<Vec<(String, Value)>>> = None;
        for (key, value) in &table {
            match key.as_str() {
                "game" => match value.as_str() {
                    Some(g) if GAMES.contains(&g) => game = Some(g.to_string()),
                    _ => {
                        return Err(spec_err(format!(
                            "key 'game': expected one of {}, got {}",
                            GAMES.join(", "),
                            crate::text::quote(&shown(value))
                        )))
                    }
                },
                "games" => games = Some(positive("games", value)?),
                "seed" => seed = non_negative("seed", value)?,
                "seed_per_cell" => {
                    seed_per_cell = value
                        .as_bool()
                        .ok_or_else(|| spec_err("key 'seed_per_cell': expected true or false"))?
                }
                "base" => {
                    let t = value
                        .as_table()
                        .ok_or_else(|| spec_err("key 'base': expected a table [base]"))?;
                    for (k, v) in t {
                        let key = normal_key(k);
                        base.push((key.clone(), Value::from_toml(&key, v)?));
                    }
                }
                "grid" => {
                    let t = value
                        .as_table()
                        .ok_or_else(|| spec_err("key 'grid': expected a table [grid]"))?;
                    for (k, v) in t {
                        let key = normal_key(k);
                        let values = match v {
                            toml::Value::Array(a) if !a.is_empty() => a
                                .iter()
                                .map(|x| Value::from_toml(&key, x))
                                .collect::<Result<Vec<_>, _>>()?,
                            toml::Value::Array(_) => {
                                return Err(spec_err(format!(
                                    "key 'grid.{k}': the list of values is empty"
                                )))
                            }
                            other => vec![Value::from_toml(&key, other)?],
                        };
                        grid.push((key, values));
                    }
                }
                "cells" => {
                    let a = value.as_array().ok_or_else(|| {
                        spec_err("key 'cells': expected a list of tables [[cells]]")
                    })?;
                    let mut cells = Vec::new();
                    for (i, c) in a.iter().enumerate() {
                        let t = c.as_table().ok_or_else(|| {
                            spec_err(format!("key 'cells' (cell {}): expected a table", i + 1))
                        })?;
                        let mut cell = Vec::new();
                        for (k, v) in t {
                            let key = normal_key(k);
                            cell.push((key.clone(), Value::from_toml(&key, v)?));
                        }
                        cells.push(cell);
                    }
                    list = Some(cells);
                }
                other => {
                    return Err(spec_err(format!(
                        "unknown key '{}' (expected game, games, seed, seed_per_cell, [base], \
                         [grid] or [[cells]])",
                        crate::text::quote(other)
                    )))
                }
            }
        }
        let game = game.ok_or_else(|| {
            spec_err(format!(
                "key 'game' is missing (one of {})",
                GAMES.join(", ")
            ))
        })?;
        for o in overrides {
            apply_override(
                o,
                &mut games,
                &mut seed,
                &mut seed_per_cell,
                &mut base,
                &mut grid,
                list.is_some(),
            )?;
        }
        let (keys, cells) = match (list, grid.is_empty()) {
            (Some(_), false) => return Err(spec_err(
                "keys 'grid' and 'cells': give either a [grid] or a list of [[cells]], not both",
            )),
            (Some(list), true) => cells_of_list(list)?,
            (None, false) => cells_of_grid(&grid)?,
            (None, true) => {
                return Err(spec_err(
                    "nothing to sweep: add a [grid] of values or a list of [[cells]]",
                ))
            }
        };
        let spec = Spec {
            game,
            games,
            seed,
            seed_per_cell,
            base,
            keys,
            cells,
        };
        spec.check()?;
        Ok(spec)
    }

    fn check(&self) -> Result<(), SweepError> {
        let mut seen = std::collections::HashSet::new();
        for (key, _) in &self.base {
            if !seen.insert(key.as_str()) {
                return Err(spec_err(format!("key 'base.{key}' is given twice")));
            }
        }
        for key in self.base.iter().map(|(k, _)| k).chain(&self.keys) {
            if RESERVED.contains(&key.as_str()) {
                return Err(spec_err(format!(
                    "key '{key}': the sweep sets it itself (outputs, threads, shards and resume \
                     are options of `cardsim sweep`)"
                )));
            }
            if key.is_empty() || !key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                return Err(spec_err(format!(
                    "key '{}': option names are letters, digits, '-' and '_'",
                    crate::text::quote(key)
                )));
            }
        }
        for key in &self.keys {
            if self.base.iter().any(|(k, _)| k == key) {
                return Err(spec_err(format!(
                    "key '{key}' is both in [base] and swept: keep one"
                )));
            }
            if RESULT_COLUMNS.contains(&key.as_str()) {
                return Err(spec_err(format!(
                    "key '{key}': a swept key may not be named like a column of results.csv"
                )));
            }
        }
        for (key, _) in &self.base {
            if key == "seed" || key == "games" {
                return Err(spec_err(format!(
                    "key 'base.{key}': write it at the top of the spec (`{key} = ...`)"
                )));
            }
        }
        if self.games.is_none() && !self.keys.iter().any(|k| k == "games") {
            return Err(spec_err(
                "key 'games' is missing: the games of every cell (`games = 10000`)",
            ));
        }
        if self.seed_per_cell && self.keys.iter().any(|k| k == "seed") {
            return Err(spec_err(
                "key 'seed_per_cell': the seed is swept already; drop one of them",
            ));
        }
        let mut dirs = std::collections::HashSet::new();
        for c in 0..self.cells.len() {
            if !dirs.insert(self.cell_dir(c)) {
                return Err(spec_err(format!(
                    "cell {} ({}) is given twice",
                    c + 1,
                    self.cell_dir(c)
                )));
            }
        }
        Ok(())
    }

    /// The cell's folder, hive style: `key=value/key2=value2` (values with
    /// characters other than letters, digits and `._+,-` escaped as
    /// `%XX`).
    pub fn cell_dir(&self, cell: usize) -> String {
        self.keys
            .iter()
            .zip(&self.cells[cell])
            .map(|(k, v)| format!("{k}={}", hive_escape(&v.text())))
            .collect::<Vec<_>>()
            .join("/")
    }

    /// The seed of a cell: the spec's seed for every cell (common random
    /// numbers: the cells play the same deals) or, with `seed_per_cell`,
    /// the first 8 bytes (little-endian) of the BLAKE3 hash of
    /// `cardsim-sweep-seed`, the seed (8 bytes, little-endian) and the
    /// cell's `key=value` lines. A swept `seed` is the cell's value.
    pub fn cell_seed(&self, cell: usize) -> u64 {
        if let Some(i) = self.keys.iter().position(|k| k == "seed") {
            if let Value::Int(s) = self.cells[cell][i] {
                return s as u64;
            }
        }
        if !self.seed_per_cell {
            return self.seed;
        }
        let mut h = blake3::Hasher::new();
        h.update(b"cardsim-sweep-seed");
        h.update(&self.seed.to_le_bytes());
        for (k, v) in self.keys.iter().zip(&self.cells[cell]) {
            h.update(format!("{k}={}\n", v.text()).as_bytes());
        }
        let hash = h.finalize();
        let mut first = [0u8; 8];
        first.copy_from_slice(&hash.as_bytes()[..8]);
        u64::from_le_bytes(first)
    }

    /// The cell's game command (after `cardsim`), its outputs relative to
    /// the cell's folder: what its summary records and `verify --rerun`
    /// replays.
    pub fn cell_command(&self, cell: usize) -> Vec<String> {
        let mut argv = vec![self.game.clone()];
        if let Some(g) = self.games {
            if !self.keys.iter().any(|k| k == "games") {
                argv.extend(["--games".to_string(), g.to_string()]);
            }
        }
        if !self.keys.iter().any(|k| k == "seed") {
            argv.extend(["--seed".to_string(), self.cell_seed(cell).to_string()]);
        }
        for (k, v) in &self.base {
            argv.extend(v.flag_words(k));
        }
        for (k, v) in self.keys.iter().zip(&self.cells[cell]) {
            argv.extend(v.flag_words(k));
        }
        argv
    }

    /// The options a spec names (base and swept), snake_case.
    pub fn option_keys(&self) -> impl Iterator<Item = &str> {
        self.base
            .iter()
            .map(|(k, _)| k.as_str())
            .chain(self.keys.iter().map(String::as_str))
            .filter(|k| *k != "seed" && *k != "games")
    }
}

/// Escapes a folder name's value as Hive does: letters, digits and `._+,-`
/// stay, every other byte becomes `%XX`; a leading `.` too (no `.` or `..`
/// folders).
pub fn hive_escape(v: &str) -> String {
    let mut out = String::new();
    for (i, b) in v.bytes().enumerate() {
        let keep = b.is_ascii_alphanumeric() || b"_+,-".contains(&b) || (b == b'.' && i > 0);
        if keep {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A TOML value as a message shows it.
fn shown(v: &toml::Value) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| v.type_str().to_string())
}

fn positive(key: &str, v: &toml::Value) -> Result<u64, SweepError> {
    match v.as_integer() {
        Some(i) if i >= 1 => Ok(i as u64),
        _ => Err(spec_err(format!(
            "key '{key}': expected a whole number of at least 1, got {}",
            crate::text::quote(&shown(v))
        ))),
    }
}

fn non_negative(key: &str, v: &toml::Value) -> Result<u64, SweepError> {
    match v.as_integer() {
        Some(i) if i >= 0 => Ok(i as u64),
        _ => Err(spec_err(format!(
            "key '{key}': expected a whole number of at least 0, got {}",
            crate::text::quote(&shown(v))
        ))),
    }
}

/// Parses the values of `--set KEY=A,B,...`: a TOML list body when it is
/// one (`2,3,4`, `"tag,station","random"`), else words split at commas.
fn override_values(key: &str, text: &str) -> Result<Vec<Value>, SweepError> {
    if let Ok(t) = toml::from_str::<toml::Table>(&format!("v = [{text}]")) {
        if let Some(toml::Value::Array(a)) = t.get("v") {
            if !a.is_empty() {
                return a.iter().map(|x| Value::from_toml(key, x)).collect();
            }
        }
    }
    text.split(',')
        .map(|w| {
            let w = w.trim();
            if w.is_empty() {
                Err(spec_err(format!("--set {key}: an empty value")))
            } else {
                Ok(Value::Str(w.to_string()))
            }
        })
        .collect()
}

/// Applies one `--set KEY=A,B,...`: `games`, `seed` and `seed_per_cell`
/// with one value set the spec's own keys; a swept key gets the new list;
/// another key with one value goes into [base], with several it becomes a
/// new axis of the grid.
fn apply_override(
    o: &str,
    games: &mut Option<u64>,
    seed: &mut u64,
    seed_per_cell: &mut bool,
    base: &mut Vec<(String, Value)>,
    grid: &mut Vec<(String, Vec<Value>)>,
    is_list: bool,
) -> Result<(), SweepError> {
    let (k, text) = o.split_once('=').ok_or_else(|| {
        spec_err(format!(
            "--set '{}': expected KEY=VALUE or KEY=A,B,C",
            crate::text::quote(o)
        ))
    })?;
    let key = normal_key(k);
    let values = override_values(&key, text)?;
    let one = (values.len() == 1).then(|| values[0].clone());
    let in_grid = grid.iter().position(|(g, _)| *g == key);
    match (key.as_str(), one, in_grid) {
        (_, _, Some(i)) => grid[i].1 = values,
        ("games", Some(Value::Int(g)), None) if g >= 1 => *games = Some(g as u64),
        ("seed", Some(Value::Int(s)), None) if s >= 0 => *seed = s as u64,
        ("seed_per_cell", Some(Value::Bool(b)), None) => *seed_per_cell = b,
        ("games" | "seed" | "seed_per_cell", Some(v), None) => {
            return Err(spec_err(format!(
                "--set {key}: bad value '{}'",
                crate::text::quote(&v.text())
            )))
        }
        (_, Some(v), None) => match base.iter_mut().find(|(b, _)| *b == key) {
            Some(slot) => slot.1 = v,
            None => base.push((key, v)),
        },
        (_, None, None) if is_list => {
            return Err(spec_err(format!(
                "--set {key}: several values add an axis to a [grid], and this spec lists \
                 [[cells]]"
            )))
        }
        (_, None, None) => {
            base.retain(|(b, _)| *b != key);
            grid.push((key, values));
        }
    }
    Ok(())
}

fn cells_of_grid(
    grid: &[(String, Vec<Value>)],
) -> Result<(Vec<String>, Vec<Vec<Value>>), SweepError> {
    let total = grid
        .iter()
        .try_fold(1usize, |n, (_, v)| n.checked_mul(v.len()))
        .filter(|&n| n <= MAX_CELLS)
        .ok_or_else(|| spec_err(format!("key 'grid': more than {MAX_CELLS} cells")))?;
    let keys = grid.iter().map(|(k, _)| k.clone()).collect();
    let mut cells = Vec::with_capacity(total);
    for mut i in 0..total {
        // The last key varies fastest.
        let mut cell = vec![Value::Bool(false); grid.len()];
        for (slot, (_, values)) in cell.iter_mut().zip(grid).rev() {
            *slot = values[i % values.len()].clone();
            i /= values.len();
        }
        cells.push(cell);
    }
    Ok((keys, cells))
}

fn cells_of_list(
    list: Vec<Vec<(String, Value)>>,
) -> Result<(Vec<String>, Vec<Vec<Value>>), SweepError> {
    let Some(first) = list.first() else {
        return Err(spec_err("key 'cells': the list is empty"));
    };
    if list.len() > MAX_CELLS {
        return Err(spec_err(format!(
            "key 'cells': more than {MAX_CELLS} cells"
        )));
    }
    let keys: Vec<String> = first.iter().map(|(k, _)| k.clone()).collect();
    if keys.is_empty() {
        return Err(spec_err("key 'cells' (cell 1): names no option"));
    }
    let mut cells = Vec::new();
    for (i, cell) in list.iter().enumerate() {
        let mut values = Vec::new();
        for key in &keys {
            let v = cell.iter().find(|(k, _)| k == key).ok_or_else(|| {
                spec_err(format!(
                    "key 'cells' (cell {}): '{key}' is missing (every cell names the same keys)",
                    i + 1
                ))
            })?;
            values.push(v.1.clone());
        }
        if let Some((extra, _)) = cell.iter().find(|(k, _)| !keys.contains(k)) {
            return Err(spec_err(format!(
                "key 'cells' (cell {}): '{extra}' is not in cell 1 (every cell names the same \
                 keys)",
                i + 1
            )));
        }
        cells.push(values);
    }
    Ok((keys, cells))
}

#[cfg(test)]
mod tests {
    use super::*;

    const GRID: &str = "game = \"fishing\"\ngames = 100\nseed = 5\n[base]\ncard-limit = 1000\n\
                        [grid]\nplayers = [2, 3]\nreverse-captures = [false, true]\n";

    #[test]
    fn a_grid_is_every_combination_last_key_fastest() {
        let s = Spec::parse(GRID, &[]).unwrap();
        assert_eq!(s.keys, ["players", "reverse_captures"]);
        let dirs: Vec<String> = (0..s.cells.len()).map(|c| s.cell_dir(c)).collect();
        assert_eq!(
            dirs,
            [
                "players=2/reverse_captures=false",
                "players=2/reverse_captures=true",
                "players=3/reverse_captures=false",
                "players=3/reverse_captures=true"
            ]
        );
        assert_eq!(
            s.cell_command(1),
            [
                "fishing",
                "--games",
                "100",
                "--seed",
                "5",
                "--card-limit",
                "1000",
                "--players",
                "2",
                "--reverse-captures"
            ]
        );
        assert_eq!(s.cell_seed(0), 5);
        assert_eq!(s.cell_seed(3), 5);
    }

    #[test]
    fn seeds_per_cell_depend_on_the_values_not_the_position() {
        let s = Spec::parse(GRID, &["seed_per_cell=true".into()]).unwrap();
        let t = Spec::parse(GRID, &["seed_per_cell=true".into(), "players=3".into()]).unwrap();
        assert_ne!(s.cell_seed(0), s.cell_seed(1));
        assert_ne!(s.cell_seed(0), s.cell_seed(2));
        // players=3/reverse_captures=false is cell 2 in one, cell 0 in the other.
        assert_eq!(s.cell_seed(2), t.cell_seed(0));
    }

    #[test]
    fn overrides_replace_axes_add_axes_and_set_base_options() {
        let s = Spec::parse(
            GRID,
            &[
                "players=2,3,4".into(),
                "jack-captures-empty-row=true,false".into(),
                "card_limit=50".into(),
                "games=7".into(),
            ],
        )
        .unwrap();
        assert_eq!(s.cells.len(), 12);
        assert_eq!(s.keys[2], "jack_captures_empty_row");
        assert_eq!(s.base, [("card_limit".to_string(), Value::Int(50))]);
        assert_eq!(s.games, Some(7));
        let s = Spec::parse(GRID, &["agents=\"a,b\",\"c\"".into()]).unwrap();
        assert_eq!(s.keys[2], "agents");
        assert_eq!(s.cells[1][2], Value::Str("c".into()));
        let s = Spec::parse(GRID, &["rules=x,y".into()]).unwrap();
        assert_eq!(s.cells[1][2], Value::Str("y".into()));
    }

    #[test]
    fn bad_specs_name_the_key_on_one_line() {
        let cases = [
            (
                "game = \"poker\"\ngames = 1\n[grid]\na = [1]\n",
                "key 'game'",
            ),
            ("game = \"fishing\"\n[grid]\nplayers = [2]\n", "key 'games'"),
            (
                "game = \"fishing\"\ngames = 0\n[grid]\nplayers = [2]\n",
                "key 'games'",
            ),
            ("game = \"fishing\"\ngames = 1\n", "nothing to sweep"),
            (
                "game = \"fishing\"\ngames = 1\ncolour = 2\n[grid]\np = [2]\n",
                "colour",
            ),
            (
                "game = \"fishing\"\ngames = 1\n[grid]\nplayers = []\n",
                "grid.players",
            ),
            (
                "game = \"fishing\"\ngames = 1\n[grid]\nout = [\"x\"]\n",
                "key 'out'",
            ),
            (
                "game = \"fishing\"\ngames = 1\n[grid]\nmean = [1]\n",
                "key 'mean'",
            ),
            (
                "game = \"fishing\"\ngames = 1\n[grid]\np = [1, 1]\n",
                "given twice",
            ),
            (
                "game = \"fishing\"\ngames = 1\n[grid]\np = [[1]]\n",
                "key 'p'",
            ),
            (
                "game = \"fishing\"\ngames = 1\n[base]\nseed = 1\n[grid]\np = [1]\n",
                "base.seed",
            ),
            (
                "game = \"fishing\"\ngames = 1\n[[cells]]\na = 1\n[[cells]]\nb = 1\n",
                "'a' is missing",
            ),
            ("game = \"fishing\"\ngames = = 1\n", "line 2"),
        ];
        for (text, want) in cases {
            let e = Spec::parse(text, &[]).unwrap_err().to_string();
            assert!(e.contains(want), "{text:?}: {e}");
            assert!(!e.contains('\n'), "{e}");
        }
        let e = Spec::parse(GRID, &["players".into()])
            .unwrap_err()
            .to_string();
        assert!(e.contains("--set"), "{e}");
    }

    #[test]
    fn folder_values_are_escaped_hive_style() {
        assert_eq!(
            hive_escape("tag(open=0.2),station"),
            "tag%28open%3D0.2%29,station"
        );
        assert_eq!(hive_escape("../x"), "%2E.%2Fx");
        assert_eq!(hive_escape("0.5"), "0.5");
    }
}
