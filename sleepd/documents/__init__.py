"""Target documents: locate, parse frontmatter, apply bounded edits, diff, merge, write."""
