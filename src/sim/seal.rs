//! JSON documents that vouch for themselves: the summary of a run and the
//! manifest of a sweep carry the BLAKE3 of their own canonical bytes, so
//! `verify`, `merge` and `--resume` refuse one that was edited or damaged.

/// A document with a `checksum` field over the rest of it.
pub trait Sealed: serde::Serialize + Clone {
    /// The field that holds the checksum.
    fn checksum_mut(&mut self) -> &mut String;

    /// The canonical bytes the checksum covers: the pretty JSON with an
    /// empty checksum. Parsing and re-serialising gives the same bytes
    /// (floats round-trip exactly with serde_json's `float_roundtrip`).
    fn content_bytes(&self) -> Result<Vec<u8>, serde_json::Error> {
        let mut copy = self.clone();
        copy.checksum_mut().clear();
        serde_json::to_vec_pretty(&copy)
    }

    /// The BLAKE3 of [`Sealed::content_bytes`], in hex.
    fn content_hash(&self) -> Result<String, serde_json::Error> {
        Ok(blake3::hash(&self.content_bytes()?).to_hex().to_string())
    }

    /// Sets the checksum and returns the JSON to write (ends in a newline).
    fn seal(&mut self) -> Result<Vec<u8>, serde_json::Error> {
        *self.checksum_mut() = self.content_hash()?;
        let mut json = serde_json::to_vec_pretty(self)?;
        json.push(b'\n');
        Ok(json)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, serde::Serialize)]
    struct Doc {
        a: u32,
        checksum: String,
    }

    impl Sealed for Doc {
        fn checksum_mut(&mut self) -> &mut String {
            &mut self.checksum
        }
    }

    #[test]
    fn the_checksum_covers_everything_but_itself() {
        let mut d = Doc {
            a: 1,
            checksum: "stale".into(),
        };
        let json = d.seal().unwrap();
        assert!(json.ends_with(b"\n"));
        assert_eq!(d.checksum, d.content_hash().unwrap());
        let sealed = d.checksum.clone();
        d.a = 2;
        assert_ne!(d.content_hash().unwrap(), sealed);
    }
}
