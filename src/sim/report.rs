//! The summary as a person reads it: the table printed on stderr after a
//! run or a merge.

use super::output::Summary;

/// A number for the table in one notation: at most 4 significant digits
/// (enough for a reader, and never more than the value holds: rounding is
/// accurate to the digits shown), thousands grouped, no exponent below
/// 10^12.
fn num(v: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let magnitude = v.abs().log10().floor() as i32;
    let decimals = (3 - magnitude).clamp(0, 9) as usize;
    let text = format!("{v:.decimals$}");
    let (int, frac) = text
        .split_once('.')
        .map_or((text.as_str(), ""), |(i, f)| (i, f));
    let (sign, digits) = int.strip_prefix('-').map_or(("", int), |d| ("-", d));
    let whole = grouped(digits.parse().unwrap_or(0));
    let frac = frac.trim_end_matches('0');
    if frac.is_empty() {
        format!("{sign}{whole}")
    } else {
        format!("{sign}{whole}.{frac}")
    }
}

/// A whole number with its thousands grouped: `47,788`.
pub(crate) fn grouped(v: u64) -> String {
    let digits = v.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A share as a percentage, to 2 decimals.
fn pct(v: f64) -> String {
    format!("{:.2}%", 100.0 * v)
}

/// Lays out rows in columns (the first left-aligned, the rest right),
/// two spaces apart.
fn columns(rows: &[Vec<String>]) -> String {
    let n = rows.first().map_or(0, Vec::len);
    let widths: Vec<usize> = (0..n)
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, cell)| {
                if c == 0 {
                    format!("{cell:<w$}", w = widths[c])
                } else {
                    format!("{cell:>w$}", w = widths[c])
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

/// The summary as the terminal table printed on stderr.
pub fn summary_table(s: &Summary) -> String {
    let played = s.end_game - s.first_game;
    // Hold'em plays hands (deal groups of hands with --duplicate); every
    // other game plays games.
    let noun = match (
        s.identity.game.as_str(),
        s.identity.options.contains_key("duplicate"),
    ) {
        ("holdem", true) => "deal groups",
        ("holdem", false) => "hands",
        _ => "games",
    };
    let rate = grouped(s.games_per_s.round() as u64);
    let timing = match &s.merged {
        // A merge: the span is elapsed time, the sum is the work's cost.
        Some(m) => format!(
            ", merged from {} shards\n{:.2} s elapsed (first start to last end), {:.2} s of \
             shard time, {rate} {noun}/s",
            m.shards, s.wall_time_s, m.shard_time_sum_s
        ),
        None => format!(
            ", {:.2} s on {} thread{}, {rate} {noun}/s",
            s.wall_time_s,
            s.threads,
            if s.threads == 1 { "" } else { "s" },
        ),
    };
    let mut out = format!(
        "{} {} {noun} (seed {}{}){timing}\n",
        s.identity.game,
        grouped(played),
        s.identity.seed,
        s.shard
            .map(|sh| format!(", shard {}/{}", sh.index, sh.count))
            .unwrap_or_default(),
    );
    // Proportions: a percentage with its Wilson interval. Other metrics:
    // mean ± the 95% half-width, sd and percentiles (p99.9 and the exact
    // state are in the JSON). Counts show only where a metric was observed
    // in fewer games than were played; metrics never observed are listed
    // by name, not as rows of dashes. Fits 80 columns for names of up to
    // about 20 characters.
    let mut shares = vec![vec![
        "share".to_string(),
        "%".into(),
        "95% CI (Wilson)".into(),
        "n".into(),
    ]];
    let mut values = vec![[
        "metric",
        "mean ± 95%",
        "sd",
        "min",
        "p50",
        "p90",
        "p99",
        "max",
    ]
    .iter()
    .map(|h| h.to_string())
    .collect::<Vec<_>>()];
    let mut unseen = Vec::new();
    for m in &s.metrics {
        let (Some(mean), Some([lo, hi])) = (m.mean, m.ci95) else {
            unseen.push(m.name.as_str());
            continue;
        };
        let name = if m.count == played {
            m.name.clone()
        } else {
            format!("{} (n={})", m.name, num(m.count as f64))
        };
        if m.kind == "proportion" {
            shares.push(vec![
                m.name.clone(),
                pct(mean),
                format!("[{}, {}]", pct(lo), pct(hi)),
                num(m.count as f64),
            ]);
            continue;
        }
        let cell = |v: Option<f64>| v.map_or_else(|| "-".to_string(), num);
        values.push(vec![
            name,
            format!("{} ± {}", num(mean), num((hi - lo) / 2.0)),
            cell(m.sd),
            cell(m.min),
            cell(m.p50),
            cell(m.p90),
            cell(m.p99),
            cell(m.max),
        ]);
    }
    if values.len() > 1 {
        out.push_str(&columns(&values));
    }
    if shares.len() > 1 {
        out.push_str(&columns(&shares));
    }
    if !unseen.is_empty() {
        out.push_str(&format!("not observed: {}\n", unseen.join(", ")));
    }
    out.push_str(&crate::holdem::duplicate::agent_table_text(&s.agents));
    for line in units_lines(s) {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// What a game's metrics are measured in, by name, and the pattern the
/// units line shows for it (per-seat names share one): hold'em's chip
/// counts, the fishing game's card counts, Tiến lên's finishing places.
/// Counts of events (captures, plays, nodes) have no unit.
fn unit_of(game: &str, metric: &str) -> Option<(&'static str, String)> {
    let unit = match (game, metric) {
        ("holdem", "pot_total" | "side_pot_total") => "chips",
        ("holdem", m) if m.starts_with("net_") => return Some(("chips", "net_*".into())),
        ("holdem", m) if m.starts_with("ev_net_") => return Some(("chips", "ev_net_*".into())),
        ("holdem", m) if m.starts_with("agent_") => return Some(("chips", "agent_*".into())),
        (
            "fishing",
            "cards_played" | "longest_capture" | "max_pile" | "cycle_length" | "cycle_start",
        ) => "cards",
        ("tienlen", m) if m.ends_with("_position") => {
            return Some(("places (1 = first out)", "*_position".into()))
        }
        _ => return None,
    };
    Some((unit, metric.to_string()))
}

/// `in chips (1 bb = 2 chips): pot_total, net_*, ev_net_*`: one line per
/// unit, naming the metrics measured in it (hold'em's big blind from the
/// run's options).
fn units_lines(s: &Summary) -> Vec<String> {
    let mut units: Vec<(&str, Vec<String>)> = Vec::new();
    for m in s.metrics.iter().filter(|m| m.kind != "proportion") {
        let Some((unit, pattern)) = unit_of(&s.identity.game, &m.name) else {
            continue;
        };
        match units.iter_mut().find(|(u, _)| *u == unit) {
            Some((_, names)) if names.contains(&pattern) => {}
            Some((_, names)) => names.push(pattern),
            None => units.push((unit, vec![pattern])),
        }
    }
    let bb = s
        .identity
        .options
        .get("blinds")
        .and_then(|b| b.split_once('/'))
        .map(|(_, bb)| format!(" (1 bb = {bb} chips)"));
    units
        .into_iter()
        .map(|(unit, names)| {
            let note = if unit == "chips" {
                bb.clone().unwrap_or_default()
            } else {
                String::new()
            };
            format!("in {unit}{note}: {}", names.join(", "))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_keep_four_significant_digits_in_one_notation() {
        assert_eq!(num(612.329), "612.3");
        assert_eq!(num(1_303.882_4), "1,304");
        assert_eq!(num(-0.000_123_4), "-0.0001234");
        assert_eq!(num(2_000_000.0), "2,000,000");
        assert_eq!(num(-200.0), "-200");
        assert_eq!(num(0.5425), "0.5425");
        assert_eq!(pct(0.489_818_8), "48.98%");
        assert_eq!(grouped(47_788), "47,788");
        assert_eq!(grouped(999), "999");
    }
}
