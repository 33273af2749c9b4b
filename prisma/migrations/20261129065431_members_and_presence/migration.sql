-- CreateEnum
CREATE TYPE "project_role" AS ENUM ('viewer', 'editor', 'owner');

-- CreateEnum
CREATE TYPE "presence_state" AS ENUM ('viewing', 'editing');

-- A stream's lease now names its project. Leases only count open streams: those of the instances
-- that run this migration's predecessor end with it, and their clients reconnect.
DELETE FROM "event_streams";

-- AlterTable
ALTER TABLE "event_streams" ADD COLUMN     "opened_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "project_id" UUID NOT NULL;

-- AlterTable
ALTER TABLE "revisions" ADD COLUMN     "author_id" UUID;

-- CreateTable
CREATE TABLE "project_members" (
    "project_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "role" "project_role" NOT NULL,
    "added_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "project_created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "project_members_pkey" PRIMARY KEY ("project_id","account_id")
);

-- CreateTable
CREATE TABLE "project_presence" (
    "project_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "location" VARCHAR(400),
    "state" "presence_state" NOT NULL DEFAULT 'viewing',
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "project_presence_pkey" PRIMARY KEY ("project_id","account_id")
);

-- CreateIndex
CREATE INDEX "project_members_account_id_project_created_at_project_id_idx" ON "project_members"("account_id", "project_created_at", "project_id");

-- CreateIndex
CREATE INDEX "event_streams_project_id_account_id_idx" ON "event_streams"("project_id", "account_id");

-- AddForeignKey
ALTER TABLE "event_streams" ADD CONSTRAINT "event_streams_project_id_account_id_fkey" FOREIGN KEY ("project_id", "account_id") REFERENCES "project_members"("project_id", "account_id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "project_members" ADD CONSTRAINT "project_members_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "project_members" ADD CONSTRAINT "project_members_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "project_presence" ADD CONSTRAINT "project_presence_project_id_account_id_fkey" FOREIGN KEY ("project_id", "account_id") REFERENCES "project_members"("project_id", "account_id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- Every project's owner is its first member.
INSERT INTO "project_members" ("project_id", "account_id", "role", "added_at", "project_created_at")
SELECT p."id", p."owner_id", 'owner', p."created_at", p."created_at" FROM "projects" p;

-- A new project, or a project's copy, has its creator as its owner: a trigger, so that no way of
-- inserting a project (one with its whole tree, a copy, a test's own INSERT) can leave it
-- without its one owner.
CREATE FUNCTION layout_add_owner() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO project_members (project_id, account_id, role, added_at, project_created_at)
  VALUES (NEW.id, NEW.owner_id, 'owner', NEW.created_at, NEW.created_at);
  RETURN NULL;
END
$$;

CREATE TRIGGER "projects_add_owner" AFTER INSERT ON "projects"
  FOR EACH ROW EXECUTE FUNCTION layout_add_owner();

-- A project's first revision is its creator's.
CREATE OR REPLACE FUNCTION layout_record_revision() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  operation text := NULLIF(current_setting('layout.operation', true), '');
BEGIN
  -- A new project, or a project's copy (made behind its original's lock).
  INSERT INTO revisions AS r (project_id, revision, created_at, operation, path, title, author_id)
  VALUES (NEW.id, NEW.revision, NEW.updated_at,
    CASE WHEN operation = 'project.duplicate' THEN operation ELSE 'project.create' END,
    CASE WHEN operation = 'project.duplicate'
      THEN COALESCE(NULLIF(current_setting('layout.path', true), ''), '/projects/' || NEW.id)
      ELSE '/projects' END,
    NEW.title, NEW.owner_id)
  ON CONFLICT (project_id, revision) DO UPDATE
    SET created_at = EXCLUDED.created_at, title = EXCLUDED.title;
  RETURN NULL;
END
$$;
