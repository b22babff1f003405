"""The thin command-line layer; nothing imports it."""
