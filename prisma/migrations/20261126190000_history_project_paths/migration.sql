-- A project's first revision names what its request addressed, as every other revision does:
-- a create the list it added to (`/projects`), a duplicate the project it copied (the copy
-- statement sets `layout.path`; without it, as an older instance sends it, the copy itself).
CREATE OR REPLACE FUNCTION layout_record_revision() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  operation text := NULLIF(current_setting('layout.operation', true), '');
BEGIN
  -- A new project, or a project's copy (made behind its original's lock).
  INSERT INTO revisions AS r (project_id, revision, created_at, operation, path, title)
  VALUES (NEW.id, NEW.revision, NEW.updated_at,
    CASE WHEN operation = 'project.duplicate' THEN operation ELSE 'project.create' END,
    CASE WHEN operation = 'project.duplicate'
      THEN COALESCE(NULLIF(current_setting('layout.path', true), ''), '/projects/' || NEW.id)
      ELSE '/projects' END,
    NEW.title)
  ON CONFLICT (project_id, revision) DO UPDATE
    SET created_at = EXCLUDED.created_at, title = EXCLUDED.title;
  RETURN NULL;
END
$$;
