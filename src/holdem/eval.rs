//! Being built (see the open hold'em issues).
