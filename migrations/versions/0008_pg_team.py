"""team mode on PostgreSQL: cursors per host, repository identity, full-text search,
row ownership with row-level security, and the foreign keys 0001 left out there

- `transcript_files.host_id`: a cursor belongs to one machine's file, unique by
  (host id, path) instead of path; the rows already stored are this machine's (the one
  running the upgrade made them).
- `target_documents.repo_identity`: the repository a document belongs to, so adoption
  writes only where that very project exists.
- PostgreSQL only: `fk_document_versions_proposal_id_proposals` and
  `fk_target_documents_last_adopted_version_id_document_versions`, which 0001 declared
  with `use_alter` and Alembic therefore never created there (`db check` drift);
  `events.text_tsv`, a stored `tsvector` of the text as the SQLite index tokenizes it
  (letters and digits, lower case, Latin accents removed) with a GIN index; an
  `owner_role` column (the role that wrote the row) on the raw tables, and row-level
  security so a role that does not own the tables reads and writes only its own rows
  there (docs/team.md: roles and grants).

Revision ID: 0008_pg_team
Revises: 0007_mining_turns
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008_pg_team"
down_revision: str | None = "0007_mining_turns"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: Lower-case Latin letters with diacritics and their base letters (Unicode NFD), as
#: SQLite's `unicode61 remove_diacritics 2` folds them; frozen here with this revision.
ACCENTED = (
    "àáâãäåçèéêëìíîïñòóôõöùúûüýÿāăąćĉċčďēĕėęěĝğġģĥĩīĭįĵķĺļľńņňōŏő"
    "ŕŗřśŝşšţťũūŭůűųŵŷźżžơưǎǐǒǔǖǘǚǜǟǡǧǩǫǭǰǵǹǻȁȃȅȇȉȋȍȏȑȓȕȗșțȟȧȩȫȭȯ"
    "ȱȳḁḃḅḇḉḋḍḏḑḓḕḗḙḛḝḟḡḣḥḧḩḫḭḯḱḳḵḷḹḻḽḿṁṃṅṇṉṋṍṏṑṓṕṗṙṛṝṟṡṣṥṧṩṫṭṯṱṳ"
    "ṵṷṹṻṽṿẁẃẅẇẉẋẍẏẑẓẕẖẗẘẙạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừử"
    "ữựỳỵỷỹ"
)
PLAIN = (
    "aaaaaaceeeeiiiinooooouuuuyyaaaccccdeeeeegggghiiiijklllnnnooo"
    "rrrssssttuuuuuuwyzzzouaiouuuuuaagkoojgnaaaeeiioorruusthaeooo"
    "oyabbbcdddddeeeeefghhhhhiikkkllllmmmnnnnoooopprrrrsssssttttu"
    "uuuuvvwwwwwxxyzzzhtwyaaaaaaaaaaaaeeeeeeeeiioooooooooooouuuuu"
    "uuyyyy"
)
#: The search text: what the SQLite word index sees as tokens, separated by spaces.
SEARCH_FUNCTION = (
    "CREATE OR REPLACE FUNCTION sleepd_search_text(t text) RETURNS text "
    "LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT regexp_replace("
    "translate(lower(t COLLATE {collation}), '{accented}', '{plain}'), "
    "'[^[:alnum:]]+', ' ', 'g') $$"
)
TSV_COLUMN = (
    "ALTER TABLE events ADD COLUMN text_tsv tsvector GENERATED ALWAYS AS "
    "(to_tsvector('simple'::regconfig, sleepd_search_text(text))) STORED"
)
TSV_INDEX = "CREATE INDEX ix_events_text_tsv ON events USING gin (text_tsv)"
#: Raw, personal tables: each row belongs to the role that harvested (or mined) it.
OWNED_TABLES = ("transcript_files", "skipped_lines", "sessions", "events", "episodes", "signals")
POLICY = "sleepd_owner_only"
#: Foreign keys 0001 declared with use_alter, which create_table skips on PostgreSQL.
LATE_FKS = (
    (
        "fk_document_versions_proposal_id_proposals",
        "document_versions",
        "proposal_id",
        "proposals",
    ),
    (
        "fk_target_documents_last_adopted_version_id_document_versions",
        "target_documents",
        "last_adopted_version_id",
        "document_versions",
    ),
)


def upgrade() -> None:
    from sleepd.hosts import host_id

    bind = op.get_bind()
    op.add_column(
        "transcript_files",
        sa.Column("host_id", sa.String(length=64), nullable=False, server_default=""),
    )
    bind.execute(sa.text("UPDATE transcript_files SET host_id = :h"), {"h": host_id()})
    with op.batch_alter_table("transcript_files") as batch:
        batch.drop_constraint("uq_transcript_files_path", type_="unique")
        batch.create_unique_constraint("uq_transcript_files_host_id_path", ["host_id", "path"])
    op.add_column("target_documents", sa.Column("repo_identity", sa.String(64), nullable=True))
    if bind.dialect.name == "postgresql":
        _postgres_up(bind)


def _postgres_up(bind: sa.engine.Connection) -> None:
    existing = {
        fk["name"]
        for table in ("document_versions", "target_documents")
        for fk in sa.inspect(bind).get_foreign_keys(table)
    }
    for name, table, column, target in LATE_FKS:
        if name not in existing:
            op.create_foreign_key(name, table, target, [column], ["id"], ondelete="SET NULL")
    icu = bind.exec_driver_sql("SELECT 1 FROM pg_collation WHERE collname = 'und-x-icu'").scalar()
    collation = '"und-x-icu"' if icu else '"default"'
    bind.exec_driver_sql(
        SEARCH_FUNCTION.format(collation=collation, accented=ACCENTED, plain=PLAIN)
    )
    bind.exec_driver_sql(TSV_COLUMN)
    bind.exec_driver_sql(TSV_INDEX)
    for table in OWNED_TABLES:
        bind.exec_driver_sql(
            f"ALTER TABLE {table} ADD COLUMN owner_role name NOT NULL DEFAULT current_user"
        )
        bind.exec_driver_sql(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
        bind.exec_driver_sql(
            f"CREATE POLICY {POLICY} ON {table} USING (owner_role = current_user) "
            "WITH CHECK (owner_role = current_user)"
        )


def downgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name == "postgresql":
        for table in reversed(OWNED_TABLES):
            bind.exec_driver_sql(f"DROP POLICY IF EXISTS {POLICY} ON {table}")
            bind.exec_driver_sql(f"ALTER TABLE {table} DISABLE ROW LEVEL SECURITY")
            bind.exec_driver_sql(f"ALTER TABLE {table} DROP COLUMN owner_role")
        bind.exec_driver_sql("DROP INDEX IF EXISTS ix_events_text_tsv")
        bind.exec_driver_sql("ALTER TABLE events DROP COLUMN IF EXISTS text_tsv")
        bind.exec_driver_sql("DROP FUNCTION IF EXISTS sleepd_search_text(text)")
        for name, table, _column, _target in LATE_FKS:  # as 0007 left them there
            bind.exec_driver_sql(f"ALTER TABLE {table} DROP CONSTRAINT IF EXISTS {name}")
    with op.batch_alter_table("target_documents") as batch:
        batch.drop_column("repo_identity")
    with op.batch_alter_table("transcript_files") as batch:
        batch.drop_constraint("uq_transcript_files_host_id_path", type_="unique")
        batch.create_unique_constraint("uq_transcript_files_path", ["path"])
        batch.drop_column("host_id")
