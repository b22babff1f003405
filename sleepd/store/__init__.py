"""The one database: models, engine, ingest and queries."""
