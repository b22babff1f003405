"""The review queue: where a person accepts, rejects, edits and rolls back proposals.

Depends on `sleepd.store` and (through `textfile`) on document I/O; never on `sleepd.dream`.
"""
