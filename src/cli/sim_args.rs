//! Options shared by every simulating command.
