//! Resume checkpoints, sealed so that `--resume` trusts only what cardsim
//! wrote.
//!
//! A checkpoint says how far a run got (`next_game`), the exact statistics up
//! to there, and, for every streamed output, the length, row count and
//! BLAKE3 hash of the prefix of its partial file that holds those games. On
//! disk it is an envelope: the checkpoint's JSON kept verbatim as `body`,
//! beside the hash of exactly those bytes. A checkpoint that was edited or
//! damaged (even one flipped bit that leaves valid JSON) fails the hash; a
//! partial file edited before the checkpoint fails the prefix hash when it is
//! reopened ([`super::sink::StreamSink::reopen`]).

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use super::output::{RunIdentity, ShardInfo};
use super::sink::ResumePoint;
use super::stats::AccumulatorState;

/// The envelope's format tag (a checkpoint of another format is refused).
pub const CHECKPOINT_FORMAT: &str = "cardsim-checkpoint/2";

/// How far a run got, and what its outputs held at that point.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Checkpoint {
    #[serde(flatten)]
    pub identity: RunIdentity,
    pub shard: Option<ShardInfo>,
    pub next_game: u64,
    /// The CSV's prefix (always a regular file: stdout and special files
    /// are never resumed).
    pub csv: FileMark,
    /// The side CSV (hold'em's `--pots`), when the run writes one.
    pub side: Option<FileMark>,
    /// The bundle of whole files (hold'em's `--phh FILE.phhs`).
    pub bundle: Option<FileMark>,
    /// With Parquet output: the row-group index (`PATH.groups.partial`),
    /// whose records rebuild the footer of the row groups that `csv`'s
    /// prefix holds. Absent for a CSV run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub row_groups: Option<FileMark>,
    /// Seconds spent before this point (over every resumed part).
    pub elapsed_s: f64,
    /// When the run first started (Unix time, seconds).
    pub started_unix_s: f64,
    pub state: Vec<AccumulatorState>,
}

/// A prefix of a streamed output.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct FileMark {
    pub bytes: u64,
    pub rows: u64,
    pub blake3: String,
}

impl From<ResumePoint> for FileMark {
    fn from(p: ResumePoint) -> FileMark {
        FileMark {
            bytes: p.bytes,
            rows: p.rows,
            blake3: p.blake3,
        }
    }
}

impl From<&FileMark> for ResumePoint {
    fn from(m: &FileMark) -> ResumePoint {
        ResumePoint {
            bytes: m.bytes,
            rows: m.rows,
            blake3: m.blake3.clone(),
        }
    }
}

#[derive(Serialize)]
struct EnvelopeOut<'a> {
    format: &'a str,
    blake3: String,
    body: &'a RawValue,
}

#[derive(Deserialize)]
struct EnvelopeIn<'a> {
    format: String,
    blake3: String,
    #[serde(borrow)]
    body: &'a RawValue,
}

impl Checkpoint {
    /// The sealed form written to disk.
    pub fn seal(&self) -> Result<Vec<u8>, serde_json::Error> {
        let body = serde_json::to_string(self)?;
        let raw = RawValue::from_string(body)?;
        let blake3 = blake3::hash(raw.get().as_bytes()).to_hex().to_string();
        serde_json::to_vec(&EnvelopeOut {
            format: CHECKPOINT_FORMAT,
            blake3,
            body: &raw,
        })
    }

    /// Reads a sealed checkpoint; `Err` says why it cannot be trusted.
    pub fn unseal(bytes: &[u8]) -> Result<Checkpoint, String> {
        let env: EnvelopeIn<'_> = serde_json::from_slice(bytes)
            .map_err(|e| format!("it is not a cardsim checkpoint ({e})"))?;
        if env.format != CHECKPOINT_FORMAT {
            return Err(format!(
                "its format is not '{CHECKPOINT_FORMAT}' (written by another version)"
            ));
        }
        let actual = blake3::hash(env.body.get().as_bytes()).to_hex();
        if actual.as_str() != env.blake3 {
            return Err("its checksum does not match its content (edited or damaged)".into());
        }
        serde_json::from_str(env.body.get())
            .map_err(|e| format!("its content is not a checkpoint ({e})"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn sample() -> Checkpoint {
        Checkpoint {
            identity: RunIdentity {
                game: "fishing".into(),
                version: "0.1.0".into(),
                seed: 7,
                games: 1000,
                options: BTreeMap::from([("players".into(), "2".into())]),
            },
            shard: None,
            next_game: 512,
            csv: FileMark {
                bytes: 4096,
                rows: 512,
                blake3: "ab".repeat(32),
            },
            side: None,
            bundle: None,
            row_groups: None,
            elapsed_s: 1.25,
            started_unix_s: 1.8e9,
            state: vec![],
        }
    }

    #[test]
    fn a_sealed_checkpoint_round_trips() {
        let c = sample();
        assert_eq!(Checkpoint::unseal(&c.seal().unwrap()).unwrap(), c);
    }

    #[test]
    fn every_single_bit_flip_is_refused() {
        let sealed = sample().seal().unwrap();
        for i in 0..sealed.len() {
            for bit in 0..8 {
                let mut bytes = sealed.clone();
                bytes[i] ^= 1 << bit;
                assert!(
                    Checkpoint::unseal(&bytes).is_err(),
                    "flip of bit {bit} of byte {i} accepted: {}",
                    String::from_utf8_lossy(&bytes)
                );
            }
        }
    }
}
