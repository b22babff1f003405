"""The Alembic head this code expects, readable without loading Alembic.

`sleepd status` must start fast; a test keeps this equal to the real head.
"""

HEAD_REVISION = "0029_episode_carries_on"
