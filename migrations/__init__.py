"""Alembic environment and versions; shipped inside the wheel."""
