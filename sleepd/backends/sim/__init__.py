"""The simulated world: a deterministic TEST DOUBLE behind the backend interface."""

from sleepd.backends.sim.backend import SIM_MODEL, SimBackend
from sleepd.backends.sim.optimizer import OptimizerRates, Proposal
from sleepd.backends.sim.target import OUTCOME_RE, read_outcome
from sleepd.backends.sim.world import (
    CATALOGUE,
    SIM_MARKER,
    Family,
    SimTask,
    SimWorld,
    family_for_intent,
)

__all__ = [
    "CATALOGUE",
    "OUTCOME_RE",
    "SIM_MARKER",
    "SIM_MODEL",
    "Family",
    "OptimizerRates",
    "Proposal",
    "SimBackend",
    "SimTask",
    "SimWorld",
    "family_for_intent",
    "read_outcome",
]
