-- A row, a column and a content each reference their parent by (project_id, parent id), and
-- the parent's own key holds the same project all the way up to the block, which references
-- the project. Their separate keys to `projects` added nothing to that, yet PostgreSQL checked
-- each again for every node written, at COMMIT, which a project copy pays for every node.
-- Deleting a project still deletes its whole tree, through the parents' cascades.
ALTER TABLE "rows" DROP CONSTRAINT "rows_project_id_fkey";
ALTER TABLE "columns" DROP CONSTRAINT "columns_project_id_fkey";
ALTER TABLE "contents" DROP CONSTRAINT "contents_project_id_fkey";
