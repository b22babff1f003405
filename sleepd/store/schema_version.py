"""The Alembic head this code expects, readable without loading Alembic.

`sleepd status` must start fast; a test keeps this equal to the real head.
"""

HEAD_REVISION = "0017_speaking_line_pattern_keys"
