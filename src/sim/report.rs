//! The summary as a person reads it: the table printed on stderr after a
//! run or a merge.

use super::output::Summary;

/// Formats a number compactly for the terminal table.
fn num(v: Option<f64>) -> String {
    match v {
        None => "-".to_string(),
        Some(v) if v == v.trunc() && v.abs() < 1e15 => format!("{v:.0}"),
        Some(v) if v.abs() >= 1000.0 => format!("{v:.1}"),
        Some(v) if v.abs() >= 1.0 => format!("{v:.3}"),
        Some(v) if v.abs() >= 1e-3 => format!("{v:.4}"),
        Some(v) => format!("{v:.1e}"),
    }
}

/// The summary as the terminal table printed on stderr.
pub fn summary_table(s: &Summary) -> String {
    let played = s.end_game - s.first_game;
    // Hold'em plays hands; every other game plays games.
    let noun = if s.identity.game == "holdem" {
        "hands"
    } else {
        "games"
    };
    let timing = match &s.merged {
        // A merge: the span is elapsed time, the sum is the work's cost.
        Some(m) => format!(
            "merged from {} shards: {:.2} s from the first shard's start to the last one's end \
             ({:.2} s summed over shards), {:.0} {noun}/s",
            m.shards, s.wall_time_s, m.shard_time_sum_s, s.games_per_s
        ),
        None => format!(
            "{:.2} s on {} thread{}, {:.0} {noun}/s",
            s.wall_time_s,
            s.threads,
            if s.threads == 1 { "" } else { "s" },
            s.games_per_s
        ),
    };
    let mut out = format!(
        "{} {} {noun} (seed {}{}), {timing}\n",
        s.identity.game,
        played,
        s.identity.seed,
        s.shard
            .map(|sh| format!(", shard {}/{}", sh.index, sh.count))
            .unwrap_or_default(),
    );
    let header = [
        "metric", "n", "mean", "95% CI", "sd", "min", "p50", "p90", "p99", "p99.9", "max",
    ];
    let mut rows: Vec<Vec<String>> = vec![header.iter().map(|h| h.to_string()).collect()];
    for m in &s.metrics {
        let ci = m
            .ci95
            .map(|[lo, hi]| format!("[{}, {}]", num(Some(lo)), num(Some(hi))))
            .unwrap_or_else(|| "-".into());
        rows.push(vec![
            m.name.clone(),
            m.count.to_string(),
            num(m.mean),
            ci,
            num(m.sd),
            num(m.min),
            num(m.p50),
            num(m.p90),
            num(m.p99),
            num(m.p999),
            num(m.max),
        ]);
    }
    let widths: Vec<usize> = (0..header.len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    for row in rows {
        let line: Vec<String> = row
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
        out.push_str(line.join("  ").trim_end());
        out.push('\n');
    }
    out
}
