-- `GET /projects` pages: each page starts right after the previous page's last project, in
-- creation order with the id breaking ties (`(created_at, id) > (…)`, LIMIT n). With the id in
-- the index a page is one index range scan of at most n + 1 entries, without a sort; on
-- (owner_id, created_at) alone PostgreSQL sorts each run of equal times. The new index serves
-- everything the old one did, which goes. The new one is built first, so that lists keep an
-- index while the migration runs.

-- CreateIndex
CREATE INDEX "projects_owner_id_created_at_id_idx" ON "projects"("owner_id", "created_at", "id");

-- DropIndex
DROP INDEX "projects_owner_id_created_at_idx";
