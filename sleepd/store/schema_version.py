"""The Alembic head this code expects, readable without loading Alembic.

`sleepd status` must start fast; a test keeps this equal to the real head.
"""

HEAD_REVISION = "0030_session_conversation"
