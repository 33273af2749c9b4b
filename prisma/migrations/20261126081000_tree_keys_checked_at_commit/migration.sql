-- The tree's foreign keys are checked when the transaction commits, not after each statement.
--
-- A project's writes that meet share one transaction (Database.transaction's group), and each
-- updates the same ancestors: the column, the row, the block and the project. PostgreSQL
-- re-checks a row's foreign keys on every update of a row that its own transaction wrote
-- before, even when no key changed, so the group's second and later writes each checked every
-- ancestor's keys again. Deferred, the checks wait for COMMIT, which skips every version of a
-- row that a later update replaced: each row is checked once, in its last version. Nothing
-- else changes: a missing or foreign parent still fails its transaction (at COMMIT), and the
-- cascades (ON DELETE, ON UPDATE) still act at once. Prisma's schema cannot say DEFERRABLE:
-- this migration is written by hand.
ALTER TABLE "projects" ALTER CONSTRAINT "projects_owner_id_fkey" DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE "blocks" ALTER CONSTRAINT "blocks_project_id_fkey" DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE "rows" ALTER CONSTRAINT "rows_project_id_fkey" DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE "rows" ALTER CONSTRAINT "rows_project_id_block_id_fkey" DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE "columns" ALTER CONSTRAINT "columns_project_id_fkey" DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE "columns" ALTER CONSTRAINT "columns_project_id_row_id_fkey" DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE "contents" ALTER CONSTRAINT "contents_project_id_fkey" DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE "contents" ALTER CONSTRAINT "contents_project_id_column_id_fkey" DEFERRABLE INITIALLY DEFERRED;
