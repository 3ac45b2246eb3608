//! The statistics written out: one CSV row and one JSON object per player,
//! and the table printed for a person. Counts are written with every
//! percentage so that users can pool players or files by adding them.

use std::io::{self, Write};

use super::player::{BigBlinds, Count, PlayerStats, MICRO};

/// The CSV header (one row per player follows).
pub const CSV_COLUMNS: &[&str] = &[
    "player",
    "hands",
    "vpip",
    "vpip_opps",
    "vpip_pct",
    "pfr",
    "pfr_opps",
    "pfr_pct",
    "three_bet",
    "three_bet_opps",
    "three_bet_pct",
    "fold_to_three_bet",
    "fold_to_three_bet_opps",
    "fold_to_three_bet_pct",
    "cbet",
    "cbet_opps",
    "cbet_pct",
    "fold_to_cbet",
    "fold_to_cbet_opps",
    "fold_to_cbet_pct",
    "postflop_bets_raises",
    "postflop_calls",
    "af",
    "showdowns",
    "saw_flop",
    "wtsd_pct",
    "won_at_showdown",
    "showdowns_known",
    "wsd_pct",
    "result_hands",
    "net_bb",
    "net_bb_sq",
    "bb_per_100",
    "bb_per_100_ci_low",
    "bb_per_100_ci_high",
    "allin_adjusted_hands",
    "allin_unknown_hands",
    "allin_net_bb",
    "allin_net_bb_sq",
    "allin_bb_per_100",
    "allin_bb_per_100_ci_low",
    "allin_bb_per_100_ci_high",
];

/// A CSV field: quoted when it holds a comma, quote or line break.
fn csv_text(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// An exact fixed-point value of `places` decimals (`-12.500000`).
fn fixed(v: i128, scale: i128, places: usize) -> String {
    let sign = if v < 0 { "-" } else { "" };
    let a = v.unsigned_abs();
    let s = scale.unsigned_abs();
    format!("{sign}{}.{:0places$}", a / s, a % s)
}

fn opt(v: Option<f64>) -> String {
    v.map_or(String::new(), |x| format!("{x:.2}"))
}

fn count_cells(c: &Count, out: &mut Vec<String>) {
    out.push(c.hits.to_string());
    out.push(c.opportunities.to_string());
    out.push(opt(c.percent()));
}

fn money_cells(b: &BigBlinds, out: &mut Vec<String>) {
    out.push(fixed(b.sum, MICRO, 6));
    out.push(fixed(b.sum_sq, MICRO * MICRO, 12));
    let r = b.per_100();
    out.push(opt(r.map(|r| r.0)));
    out.push(opt(r.and_then(|r| r.1).map(|c| c.0)));
    out.push(opt(r.and_then(|r| r.1).map(|c| c.1)));
}

/// One player's CSV row (no line end).
pub fn csv_row(name: &str, p: &PlayerStats) -> String {
    let mut c = vec![csv_text(name), p.hands.to_string()];
    for k in [
        &p.vpip,
        &p.pfr,
        &p.three_bet,
        &p.fold_to_three_bet,
        &p.cbet,
        &p.fold_to_cbet,
    ] {
        count_cells(k, &mut c);
    }
    c.push(p.postflop_bets_raises.to_string());
    c.push(p.postflop_calls.to_string());
    c.push(opt(p.aggression()));
    count_cells(&p.wtsd, &mut c);
    count_cells(&p.wsd, &mut c);
    c.push(p.net.hands.to_string());
    money_cells(&p.net, &mut c);
    c.push(p.allin_adjusted.to_string());
    c.push(p.allin_unknown.to_string());
    money_cells(&p.allin_net, &mut c);
    debug_assert_eq!(c.len(), CSV_COLUMNS.len());
    c.join(",")
}

/// The whole CSV: header and rows.
pub fn csv(rows: &[(&str, &PlayerStats)]) -> Vec<u8> {
    let mut out = CSV_COLUMNS.join(",");
    out.push('\n');
    for (name, p) in rows {
        out.push_str(&csv_row(name, p));
        out.push('\n');
    }
    out.into_bytes()
}

fn count_json(c: &Count) -> serde_json::Value {
    serde_json::json!({
        "count": c.hits,
        "opportunities": c.opportunities,
        "percent": c.percent(),
    })
}

fn money_json(b: &BigBlinds) -> serde_json::Value {
    let r = b.per_100();
    serde_json::json!({
        "hands": b.hands,
        "bb": fixed(b.sum, MICRO, 6),
        "bb_sq": fixed(b.sum_sq, MICRO * MICRO, 12),
        "bb_per_100": r.map(|r| r.0),
        "ci95": r.and_then(|r| r.1).map(|c| [c.0, c.1]),
    })
}

/// One player's JSON object.
pub fn json_player(name: &str, p: &PlayerStats) -> serde_json::Value {
    serde_json::json!({
        "player": name,
        "hands": p.hands,
        "vpip": count_json(&p.vpip),
        "pfr": count_json(&p.pfr),
        "three_bet": count_json(&p.three_bet),
        "fold_to_three_bet": count_json(&p.fold_to_three_bet),
        "cbet": count_json(&p.cbet),
        "fold_to_cbet": count_json(&p.fold_to_cbet),
        "af": {
            "bets_raises": p.postflop_bets_raises,
            "calls": p.postflop_calls,
            "ratio": p.aggression(),
        },
        "wtsd": count_json(&p.wtsd),
        "wsd": count_json(&p.wsd),
        "net": money_json(&p.net),
        "allin_net": money_json(&p.allin_net),
        "allin_adjusted_hands": p.allin_adjusted,
        "allin_unknown_hands": p.allin_unknown,
    })
}

fn pct(c: &Count) -> String {
    c.percent().map_or("-".into(), |x| format!("{x:.1}"))
}

/// The table for a person: the first `top` rows (all when `top` is 0).
pub fn write_table(
    out: &mut impl Write,
    rows: &[(&str, &PlayerStats)],
    top: usize,
) -> io::Result<()> {
    let shown = if top == 0 {
        rows.len()
    } else {
        top.min(rows.len())
    };
    let width = rows[..shown]
        .iter()
        .map(|r| r.0.chars().count())
        .max()
        .unwrap_or(6)
        .clamp(6, 40);
    writeln!(
        out,
        "{:<width$} {:>7} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5} {:>9} {:>17} {:>9}",
        "player",
        "hands",
        "vpip",
        "pfr",
        "3bet",
        "f3bet",
        "cbet",
        "fcbet",
        "af",
        "wtsd",
        "w$sd",
        "bb/100",
        "95% ci",
        "ai bb/100"
    )?;
    for (name, p) in &rows[..shown] {
        let name: String = name.chars().take(width).collect();
        let net = p.net.per_100();
        let ci = net
            .and_then(|n| n.1)
            .map_or("-".into(), |c| format!("{:.1}..{:.1}", c.0, c.1));
        let per =
            |r: Option<(f64, Option<(f64, f64)>)>| r.map_or("-".into(), |r| format!("{:.2}", r.0));
        writeln!(
            out,
            "{:<width$} {:>7} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5} {:>9} {:>17} {:>9}",
            name,
            p.hands,
            pct(&p.vpip),
            pct(&p.pfr),
            pct(&p.three_bet),
            pct(&p.fold_to_three_bet),
            pct(&p.cbet),
            pct(&p.fold_to_cbet),
            p.aggression().map_or("-".into(), |a| format!("{a:.2}")),
            pct(&p.wtsd),
            pct(&p.wsd),
            per(net),
            ci,
            per(p.allin_net.per_100()),
        )?;
    }
    if shown < rows.len() {
        writeln!(
            out,
            "... and {} more players (every player: -o or --json)",
            rows.len() - shown
        )?;
    }
    Ok(())
}
