-- Measured (bench/results/changes.md): the trigger that recorded each revision from the
-- project's row cost every write a PL/pgSQL call behind the project's lock, most of what the
-- history added to a write. The statements that change the tree record their revision
-- themselves, in the same statement (RECORD_REVISION in
-- apps/api/src/layout/repositories/sql/changes.sql.ts, which every tree write and a restore
-- include), with the pruning. A new project, or a project's copy, is still recorded here, on
-- insert: it is rare, and its row is made by statements outside the tree's.

DROP TRIGGER "projects_record_revision_update" ON "projects";

CREATE OR REPLACE FUNCTION layout_record_revision() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  operation text := NULLIF(current_setting('layout.operation', true), '');
BEGIN
  -- A new project, or a project's copy (made behind its original's lock).
  INSERT INTO revisions AS r (project_id, revision, created_at, operation, path, title)
  VALUES (NEW.id, NEW.revision, NEW.updated_at,
    CASE WHEN operation = 'project.duplicate' THEN operation ELSE 'project.create' END,
    '/projects/' || NEW.id, NEW.title)
  ON CONFLICT (project_id, revision) DO UPDATE
    SET created_at = EXCLUDED.created_at, title = EXCLUDED.title;
  RETURN NULL;
END
$$;
