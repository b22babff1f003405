"""Dream: replay tasks under candidate edits and gate them."""
