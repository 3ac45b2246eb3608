//! The row writer against the csv crate and against the slow, obvious
//! forms of its number encodings.

use super::*;

fn fixed_text(v: f64, decimals: u32) -> String {
    let mut buf = Vec::new();
    let mut row = Row::new(&mut buf);
    row.fixed(v, decimals);
    row.end();
    String::from_utf8(buf).unwrap().trim_end().to_string()
}

#[test]
fn rows_encode_as_the_csv_crate_does() {
    let texts = [
        "plain",
        "",
        "a,b",
        "say \"hi\"",
        "line\nbreak",
        "cr\rhere",
        " spaced ",
        "#hash",
        "tab\there",
        "'single'",
        "\"",
        ",",
    ];
    for a in texts {
        for b in texts {
            let mut ours = Vec::new();
            let mut row = Row::new(&mut ours);
            row.int(-12i64);
            row.text(a);
            row.empty();
            row.text(b);
            row.flag(true);
            row.end();
            let mut w = csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(Vec::new());
            w.write_record(["-12", a, "", b, "1"]).unwrap();
            assert_eq!(ours, w.into_inner().unwrap(), "{a:?} {b:?}");
        }
    }
}

#[test]
fn fixed_matches_float_formatting_away_from_ties() {
    use rand::RngExt;
    let mut rng = crate::rng::game_rng(9, 9);
    for _ in 0..20_000 {
        let v: f64 = rng.random_range(-5000.0..5000.0);
        for d in [0u32, 2, 4] {
            let text = fixed_text(v, d);
            let reference = format!("{v:.*}", d as usize);
            // The float formatter keeps the sign of a negative value
            // that rounds to zero ("-0.00"); ours writes "0.00".
            if reference.starts_with('-') && reference.bytes().all(|b| b"-0.".contains(&b)) {
                assert_eq!(text, &reference[1..]);
                continue;
            }
            // Both round to the nearest; they may differ only at an
            // exact tie, which random doubles essentially never hit.
            assert_eq!(text, reference, "{v} to {d} decimals");
        }
    }
    assert_eq!(fixed_text(-0.5, 2), "-0.50");
    assert_eq!(fixed_text(0.0001, 4), "0.0001");
    assert_eq!(fixed_text(-0.001, 2), "0.00");
    assert_eq!(fixed_text(1234.5678, 0), "1235");
    assert_eq!(fixed_text(-1234.5678, 0), "-1235");
    assert_eq!(fixed_text(0.0, 9), "0.000000000");
}

#[test]
fn fixed_int_matches_fixed_on_whole_numbers() {
    use rand::RngExt;
    let text = |f: &dyn Fn(&mut Row)| {
        let mut buf = Vec::new();
        let mut row = Row::new(&mut buf);
        f(&mut row);
        row.end();
        String::from_utf8(buf).unwrap()
    };
    let mut rng = crate::rng::game_rng(9, 10);
    let edges = [
        0i64,
        1,
        -1,
        9,
        -9,
        10,
        -10,
        99,
        100,
        -100,
        1 << 44,
        -(1 << 44),
    ];
    for k in 0..20_000 {
        let v = match edges.get(k) {
            Some(&e) => e,
            None => rng.random_range(-(1i64 << 44)..=1 << 44) >> rng.random_range(0..44u32),
        };
        for d in [0u32, 1, 2, 4] {
            if v.unsigned_abs() * POW10[d as usize] >= 1 << 53 {
                continue; // beyond the documented bound
            }
            let a = text(&|r: &mut Row| r.fixed_int(v, d));
            let b = text(&|r: &mut Row| r.fixed(v as f64, d));
            assert_eq!(a, b, "{v} to {d} decimals");
        }
    }
}

#[test]
fn word_is_text_that_needs_no_quotes() {
    let long = "abcdefghijklmnopqrstuvwxyz_0123456789";
    // Every length through the short-word copies (0..=16) and past.
    let words = (0..long.len()).map(|n| &long[..n]);
    for w in ["preflop", "flop", "straight_flush"]
        .into_iter()
        .chain(words)
    {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let mut row = Row::new(&mut a);
        row.int(1u8);
        row.word(w);
        row.end();
        let mut row = Row::new(&mut b);
        row.int(1u8);
        row.text(w);
        row.end();
        assert_eq!(a, b);
    }
}

// The fast number paths against slow, obviously correct references.

/// A row of the fields `f` writes, as text (the newline dropped).
fn row_text(f: impl FnOnce(&mut Row)) -> String {
    let mut buf = Vec::new();
    let mut row = Row::new(&mut buf);
    f(&mut row);
    row.end();
    let text = String::from_utf8(buf).unwrap();
    text.strip_suffix('\n').unwrap().to_string()
}

/// `scaled / 10^decimals` the long way: all the digits (at least
/// `decimals + 1`, zero-padded), a point before the last `decimals`.
fn scaled_reference(scaled: i64, decimals: u32) -> String {
    let d = decimals as usize;
    let digits = format!("{:0width$}", scaled.unsigned_abs(), width = d + 1);
    let (whole, fraction) = digits.split_at(digits.len() - d);
    let sign = if scaled < 0 { "-" } else { "" };
    if d == 0 {
        format!("{sign}{whole}")
    } else {
        format!("{sign}{whole}.{fraction}")
    }
}

/// Integers of every size: edges around each digit count and the type
/// limits, then random values of random bit lengths.
fn test_integers() -> Vec<i64> {
    use rand::RngExt;
    let mut values = vec![i64::MIN, i64::MIN + 1, i64::MAX, i64::MAX - 1];
    let mut p = 1i64;
    for _ in 0..19 {
        for v in [p - 1, p, p + 1, 2 * p - 1] {
            values.extend([v, -v]);
        }
        p = p.saturating_mul(10);
    }
    let mut rng = crate::rng::game_rng(9, 11);
    for _ in 0..50_000 {
        let v = rng.random::<i64>() >> rng.random_range(0..64u32);
        values.push(v);
    }
    values
}

#[test]
fn int_writes_what_display_writes() {
    use rand::RngExt;
    for v in test_integers() {
        assert_eq!(row_text(|r| r.int(v)), v.to_string());
        let u = v as u64;
        assert_eq!(row_text(|r| r.int(u)), u.to_string());
        let u = v.unsigned_abs();
        assert_eq!(row_text(|r| r.int(u)), u.to_string());
    }
    assert_eq!(row_text(|r| r.int(u64::MAX)), u64::MAX.to_string());
    // Every small number, each width and type.
    for v in -70_000i64..70_000 {
        assert_eq!(row_text(|r| r.int(v)), v.to_string());
    }
    let mut rng = crate::rng::game_rng(9, 12);
    for _ in 0..2_000 {
        let (a, b, c, d) = (
            rng.random::<u8>(),
            rng.random::<i8>(),
            rng.random::<u16>(),
            rng.random::<i16>(),
        );
        let (e, f) = (rng.random::<u32>(), rng.random::<i32>());
        let (g, h) = (rng.random::<u64>() as usize, rng.random::<i64>() as isize);
        let text = row_text(|r| {
            r.int(a);
            r.int(b);
            r.int(c);
            r.int(d);
            r.int(e);
            r.int(f);
            r.int(g);
            r.int(h);
        });
        assert_eq!(text, format!("{a},{b},{c},{d},{e},{f},{g},{h}"));
    }
    for v in [u128::MAX, u128::from(u64::MAX) + 1, 0, 7] {
        assert_eq!(row_text(|r| r.int(v)), v.to_string());
    }
    for v in [i128::MIN, i128::MAX, -i128::from(u64::MAX), -1, 0] {
        assert_eq!(row_text(|r| r.int(v)), v.to_string());
    }
}

#[test]
fn fixed_int_writes_the_number_then_zeros() {
    for v in test_integers() {
        for d in 0..=9u32 {
            let zeros = "0".repeat(d as usize);
            let reference = if d == 0 {
                v.to_string()
            } else {
                format!("{v}.{zeros}")
            };
            assert_eq!(row_text(|r| r.fixed_int(v, d)), reference);
        }
    }
}

#[test]
fn scaled_writes_the_long_division() {
    for v in test_integers() {
        for d in 0..=9u32 {
            assert_eq!(
                row_text(|r| r.scaled(v, d)),
                scaled_reference(v, d),
                "{v} with {d} decimals"
            );
        }
    }
}

#[test]
fn fixed_rounds_then_writes_the_long_division() {
    use rand::RngExt;
    let mut rng = crate::rng::game_rng(9, 13);
    for k in 0..60_000 {
        // Values up to 10^7, of every magnitude down to 10^-7.
        let v: f64 = rng.random_range(-1.0..1.0) * 10f64.powi(k % 15 - 7);
        for d in 0..=9u32 {
            // Half away from zero, as the writer has always rounded
            // (`f64::round` differs from it past 2^52, where `x + 0.5`
            // is itself rounded).
            let x = v * POW10[d as usize] as f64;
            let rounded = if x >= 0.0 {
                (x + 0.5) as i64
            } else {
                (x - 0.5) as i64
            };
            assert_eq!(
                row_text(|r| r.fixed(v, d)),
                scaled_reference(rounded, d),
                "{v} to {d} decimals"
            );
        }
    }
}

#[test]
fn small_table_holds_each_number_and_its_width() {
    for (v, &entry) in SMALL.iter().enumerate() {
        let text = v.to_string();
        let n = (entry >> 24) as usize;
        assert_eq!(n, text.len());
        assert_eq!(&entry.to_le_bytes()[..n], text.as_bytes());
    }
}

/// Random rows of every kind of field, appended to one buffer that
/// starts with bytes of its own, against the csv crate writing the
/// same fields as text: the room past each row never shows, long
/// fields outgrow it, and rows of no fields are a newline.
#[test]
fn random_rows_equal_the_csv_crate() {
    use rand::RngExt;
    let mut rng = crate::rng::game_rng(9, 14);
    let words = [
        "preflop",
        "straight_flush",
        "",
        "x",
        "ab",
        "flop",
        "two_pair",
    ];
    let texts = ["a,b", "say \"hi\"", "plain", "", "line\nbreak"];
    let mut ours = b"prefix\n".to_vec();
    let mut theirs = b"prefix\n".to_vec();
    for _ in 0..3_000 {
        let calls = rng.random_range(0..40);
        let mut row = Row::new(&mut ours);
        let mut record: Vec<String> = Vec::new();
        for _ in 0..calls {
            let v = rng.random::<i64>() >> rng.random_range(0..64u32);
            let d = rng.random_range(0..=9u32);
            match rng.random_range(0..12) {
                0 => {
                    row.int(v);
                    record.push(v.to_string());
                }
                1 => {
                    let v = v.unsigned_abs() % 2000;
                    row.fixed_int(v as i64 - 1000, d);
                    record.push(row_text(|r| r.fixed_int(v as i64 - 1000, d)));
                }
                2 => {
                    let x = (v % 10_000_000) as f64 / 997.0;
                    row.fixed(x, d);
                    record.push(row_text(|r| r.fixed(x, d)));
                }
                3 => {
                    row.empty();
                    record.push(String::new());
                }
                4 => {
                    row.flag(v < 0);
                    record.push(u8::from(v < 0).to_string());
                }
                5 => {
                    let s = words[v.unsigned_abs() as usize % words.len()];
                    row.word(s);
                    record.push(s.to_string());
                }
                6 => {
                    let s = texts[v.unsigned_abs() as usize % texts.len()];
                    row.text(s);
                    record.push(s.to_string());
                }
                7 => {
                    // Longer than the room made at a time.
                    let s = "long text, ".repeat(v.unsigned_abs() as usize % 60);
                    row.text(&s);
                    record.push(s);
                }
                9 => {
                    // Runs of empty fields, short and long.
                    let n = v.unsigned_abs() as usize % 20;
                    row.empties(n);
                    record.extend((0..n).map(|_| String::new()));
                }
                10 => {
                    let values: Vec<i32> = (0..d as i32).map(|k| (v >> k) as i32).collect();
                    row.ints(values.iter().copied());
                    record.extend(values.iter().map(|v| v.to_string()));
                }
                11 => {
                    let values: Vec<i64> = (0..d as i64).map(|k| v >> (k * 5)).collect();
                    row.fixed_ints(values.iter().copied(), 2);
                    record.extend(values.iter().map(|v| format!("{v}.00")));
                }
                _ => {
                    row.real(v as f64 / 1e6, d as usize);
                    record.push(format!("{:.*}", d as usize, v as f64 / 1e6));
                }
            }
        }
        assert_eq!(row.fields(), record.len());
        row.end();
        if record.iter().all(|f| f.is_empty()) && record.len() <= 1 {
            // No field, or one empty field: a bare newline (the csv
            // crate writes the latter as `""`).
            theirs.push(b'\n');
        } else {
            let mut w = csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(Vec::new());
            w.write_record(&record).unwrap();
            theirs.extend(w.into_inner().unwrap());
        }
    }
    let (ours, theirs) = (
        String::from_utf8(ours).unwrap(),
        String::from_utf8(theirs).unwrap(),
    );
    for (k, (a, b)) in ours.split('\n').zip(theirs.split('\n')).enumerate() {
        assert_eq!(a, b, "line {k}");
    }
    assert_eq!(ours, theirs);
}

#[test]
fn runs_of_numbers_equal_one_call_a_field() {
    let values = test_integers();
    for d in 0..=9u32 {
        for chunk in values.chunks(37) {
            let run = row_text(|r| {
                r.int(5u8);
                r.fixed_ints(chunk.iter().copied(), d);
                r.ints(chunk.iter().copied());
            });
            let one_by_one = row_text(|r| {
                r.int(5u8);
                chunk.iter().for_each(|&v| r.fixed_int(v, d));
                chunk.iter().for_each(|&v| r.int(v));
            });
            assert_eq!(run, one_by_one);
        }
    }
    // Wider than 64 bits within a run; the field count stays exact.
    let mut buf = Vec::new();
    let mut row = Row::new(&mut buf);
    row.ints([1u128, u128::MAX, 7]);
    row.int(3u8);
    assert_eq!(row.fields(), 4);
    row.end();
    assert_eq!(buf, format!("1,{},7,3\n", u128::MAX).as_bytes());
}

#[test]
fn a_dropped_row_keeps_its_fields_and_no_room() {
    let mut buf = b"x\n".to_vec();
    let mut row = Row::new(&mut buf);
    row.int(12u8);
    row.fixed_int(-3, 2);
    drop(row);
    assert_eq!(buf, b"x\n12,-3.00,");
    let row = Row::new(&mut buf);
    row.end();
    assert_eq!(buf, b"x\n12,-3.00,\n");
}
