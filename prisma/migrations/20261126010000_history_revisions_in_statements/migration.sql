-- A revision's row is written by the statement that makes the revision, with the rest of what
-- follows from its `changed` nodes (RECORD_REVISION in
-- apps/api/src/layout/repositories/sql/changes.sql.ts, which every tree write and a restore
-- include), and so is the pruning: the trigger on the project's row is dropped. A new project,
-- or a project's copy, is still recorded here, on insert: its row is made outside the tree's
-- statements. The nodes' versions stay with the triggers of the migration `history`.

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
