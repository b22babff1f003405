"""After adoption: which document version each live session ran under, whether the
adopted versions helped (before/after outcome rates of real episodes), and the
lifecycle of the learned rules in managed regions (provenance, contribution, budget).

Plain SQL over `ReadOnlyDb`-like readers where `sleepd status` needs it, so the fast
status path imports no SQLAlchemy.
"""
