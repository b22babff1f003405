"""The demo night: bundled sample transcripts, the simulator, a temporary home."""
