//! `cardsim eval`: strength, category and best five cards of a 5-, 6- or
//! 7-card hand; `-` reads one hand per line from stdin.

use std::io::{self, BufRead, BufWriter, Write};

use clap::Args;

use crate::cards::{format_cards, parse_cards, Card};
use crate::holdem::eval::{best_five, category, evaluate};

#[derive(Debug, Args)]
#[command(after_help = "Examples:
  cardsim eval \"As Kd Qd Jd Td\"
  cardsim eval \"A♠ K♦ Q♦ J♦ T♦ 2c 3h\" --json
  printf 'As Ks Qs Js Ts\n2c 3d 4h 5s 7c\n' | cardsim eval -")]
pub struct EvalArgs {
    /// The hand, 5 to 7 cards ("As Ks Qs Js Ts 2c 3d"), or `-` to read one
    /// hand per line from stdin and write one result per line.
    #[arg(value_name = "CARDS", allow_hyphen_values = true)]
    pub hand: String,
    /// One JSON object per hand: {"hand","category","best","strength"}.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: EvalArgs) -> anyhow::Result<()> {
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    if args.hand.trim() == "-" {
        for (i, line) in io::stdin().lock().lines().enumerate() {
            let line = match line {
                Ok(line) => line,
                // Bytes that are not text are bad input, as from a file.
                Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                    return Err(super::bad_input(format!(
                        "stdin line {}: not UTF-8 text",
                        i + 1
                    )))
                }
                Err(e) => return Err(anyhow::Error::new(e).context("cannot read stdin")),
            };
            if line.trim().is_empty() {
                continue;
            }
            let cards =
                parse_hand(&line).map_err(|e| super::bad_input(format!("line {}: {e}", i + 1)))?;
            write_result(&mut out, &cards, args.json)?;
        }
    } else {
        let cards = parse_hand(&args.hand).map_err(super::bad_input)?;
        write_result(&mut out, &cards, args.json)?;
    }
    out.flush()?;
    Ok(())
}

fn parse_hand(text: &str) -> Result<Vec<Card>, String> {
    let cards = parse_cards(text).map_err(|e| e.to_string())?;
    if !(5..=7).contains(&cards.len()) {
        return Err(format!(
            "a hand has 5 to 7 cards, got {} in '{}'",
            cards.len(),
            crate::text::quote(text.trim())
        ));
    }
    Ok(cards)
}

fn write_result(out: &mut impl Write, cards: &[Card], json: bool) -> io::Result<()> {
    let strength = evaluate(cards);
    let cat = category(strength);
    let best = format_cards(&best_five(cards));
    if json {
        let v = serde_json::json!({
            "hand": format_cards(cards),
            "category": cat.key(),
            "best": best,
            "strength": strength,
        });
        writeln!(out, "{v}")
    } else {
        writeln!(out, "{}: {best} (strength {strength})", cat.name())
    }
}
