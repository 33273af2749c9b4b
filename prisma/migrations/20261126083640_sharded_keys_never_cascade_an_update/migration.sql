-- No foreign key beneath a project cascades an update: Citus refuses ON UPDATE CASCADE (and SET
-- NULL, SET DEFAULT) on a key that holds the distribution column, and a node's ids never change,
-- so NO ACTION changes nothing here. PostgreSQL cannot alter a key's actions: each is dropped and
-- added again. Prisma writes that part; the tree's keys stay checked at commit (by hand: Prisma's
-- schema cannot say DEFERRABLE, see the migration `tree_keys_checked_at_commit`).

-- DropForeignKey
ALTER TABLE "blocks" DROP CONSTRAINT "blocks_project_id_fkey";

-- DropForeignKey
ALTER TABLE "columns" DROP CONSTRAINT "columns_project_id_fkey";

-- DropForeignKey
ALTER TABLE "columns" DROP CONSTRAINT "columns_project_id_row_id_fkey";

-- DropForeignKey
ALTER TABLE "contents" DROP CONSTRAINT "contents_project_id_column_id_fkey";

-- DropForeignKey
ALTER TABLE "contents" DROP CONSTRAINT "contents_project_id_fkey";

-- DropForeignKey
ALTER TABLE "node_versions" DROP CONSTRAINT "node_versions_project_id_fkey";

-- DropForeignKey
ALTER TABLE "revisions" DROP CONSTRAINT "revisions_project_id_fkey";

-- DropForeignKey
ALTER TABLE "rows" DROP CONSTRAINT "rows_project_id_block_id_fkey";

-- DropForeignKey
ALTER TABLE "rows" DROP CONSTRAINT "rows_project_id_fkey";

-- AddForeignKey
ALTER TABLE "blocks" ADD CONSTRAINT "blocks_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION DEFERRABLE INITIALLY DEFERRED;

-- AddForeignKey
ALTER TABLE "rows" ADD CONSTRAINT "rows_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION DEFERRABLE INITIALLY DEFERRED;

-- AddForeignKey
ALTER TABLE "rows" ADD CONSTRAINT "rows_project_id_block_id_fkey" FOREIGN KEY ("project_id", "block_id") REFERENCES "blocks"("project_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION DEFERRABLE INITIALLY DEFERRED;

-- AddForeignKey
ALTER TABLE "columns" ADD CONSTRAINT "columns_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION DEFERRABLE INITIALLY DEFERRED;

-- AddForeignKey
ALTER TABLE "columns" ADD CONSTRAINT "columns_project_id_row_id_fkey" FOREIGN KEY ("project_id", "row_id") REFERENCES "rows"("project_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION DEFERRABLE INITIALLY DEFERRED;

-- AddForeignKey
ALTER TABLE "contents" ADD CONSTRAINT "contents_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION DEFERRABLE INITIALLY DEFERRED;

-- AddForeignKey
ALTER TABLE "contents" ADD CONSTRAINT "contents_project_id_column_id_fkey" FOREIGN KEY ("project_id", "column_id") REFERENCES "columns"("project_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION DEFERRABLE INITIALLY DEFERRED;

-- AddForeignKey
ALTER TABLE "revisions" ADD CONSTRAINT "revisions_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "node_versions" ADD CONSTRAINT "node_versions_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION;
