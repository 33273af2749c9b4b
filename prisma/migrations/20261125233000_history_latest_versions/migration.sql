-- Measured (npm run bench): the history's triggers made writes that repeat on one node slower
-- with every revision, and serialised every commit.
--
-- A node's open version is its latest (its versions follow each other): it is found by the
-- primary key's last entry for the node, not by scanning every version the node has had.
--
-- NOTIFY leaves the write's transaction: PostgreSQL holds one lock across all databases from a
-- notifying transaction's pre-commit to the end of its commit, so that every write of every
-- project waited for the others' commits one by one. The service announces a project's change
-- on its own connection once the write has committed (apps/api/src/layout/events/
-- change-announcer.ts); a notification lost with a crash in between is read from the history
-- by the next keep-alive, as any lost one is.

CREATE OR REPLACE FUNCTION layout_record_revision() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  kept integer := COALESCE(NULLIF(current_setting('layout.history_revisions', true), '')::int, 1000);
  operation text := NULLIF(current_setting('layout.operation', true), '');
  path text := NULLIF(current_setting('layout.path', true), '');
BEGIN
  IF TG_OP = 'INSERT' THEN
    -- A new project, or a project's copy (made behind its original's lock).
    operation := CASE WHEN operation = 'project.duplicate' THEN operation ELSE 'project.create' END;
    path := '/projects/' || NEW.id;
  END IF;
  INSERT INTO revisions AS r (project_id, revision, created_at, operation, path, title)
  VALUES (NEW.id, NEW.revision, NEW.updated_at, COALESCE(operation, 'project.update'),
    COALESCE(path, '/projects/' || NEW.id), NEW.title)
  ON CONFLICT (project_id, revision) DO UPDATE
    SET created_at = EXCLUDED.created_at, title = EXCLUDED.title;
  IF NEW.revision % 16 = 0 AND NEW.revision > kept THEN
    DELETE FROM revisions r WHERE r.project_id = NEW.id AND r.revision <= NEW.revision - kept;
    DELETE FROM node_versions v
      WHERE v.project_id = NEW.id AND v.to_revision <= NEW.revision - kept + 1;
  END IF;
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION layout_close_versions() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF layout_write_revision() IS NULL THEN RETURN NULL; END IF;
  UPDATE node_versions v SET to_revision = layout_write_revision()
  FROM gone g CROSS JOIN LATERAL (
    SELECT l.from_revision FROM node_versions l
    WHERE l.project_id = g.project_id AND l.id = g.id
    ORDER BY l.from_revision DESC LIMIT 1) latest
  WHERE v.project_id = g.project_id AND v.id = g.id AND v.from_revision = latest.from_revision
    AND v.to_revision IS NULL;
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION layout_version_changed_node() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  revision integer := layout_write_revision();
BEGIN
  IF revision IS NULL THEN RETURN NULL; END IF;
  UPDATE node_versions v SET to_revision = revision
  WHERE v.project_id = NEW.project_id AND v.id = NEW.id AND v.to_revision IS NULL
    AND v.from_revision = (SELECT l.from_revision FROM node_versions l
      WHERE l.project_id = NEW.project_id AND l.id = NEW.id
      ORDER BY l.from_revision DESC LIMIT 1)
    AND v.from_revision < revision;
  CASE TG_TABLE_NAME
    WHEN 'blocks' THEN
      INSERT INTO node_versions AS v (project_id, id, from_revision, level, sort_key,
        description, style, created_at, updated_at)
      VALUES (NEW.project_id, NEW.id, revision, 'block', NEW.sort_key, NEW.description,
        NEW.style, NEW.created_at, NEW.updated_at)
      ON CONFLICT (project_id, id, from_revision) DO UPDATE SET to_revision = NULL,
        sort_key = EXCLUDED.sort_key, description = EXCLUDED.description,
        style = EXCLUDED.style, updated_at = EXCLUDED.updated_at;
    WHEN 'rows' THEN
      INSERT INTO node_versions AS v (project_id, id, from_revision, level, parent_id,
        sort_key, description)
      VALUES (NEW.project_id, NEW.id, revision, 'row', NEW.block_id, NEW.sort_key,
        NEW.description)
      ON CONFLICT (project_id, id, from_revision) DO UPDATE SET to_revision = NULL,
        parent_id = EXCLUDED.parent_id, sort_key = EXCLUDED.sort_key,
        description = EXCLUDED.description;
    WHEN 'columns' THEN
      INSERT INTO node_versions AS v (project_id, id, from_revision, level, parent_id,
        sort_key, size)
      VALUES (NEW.project_id, NEW.id, revision, 'column', NEW.row_id, NEW.sort_key, NEW.size)
      ON CONFLICT (project_id, id, from_revision) DO UPDATE SET to_revision = NULL,
        parent_id = EXCLUDED.parent_id, sort_key = EXCLUDED.sort_key, size = EXCLUDED.size;
    WHEN 'contents' THEN
      INSERT INTO node_versions AS v (project_id, id, from_revision, level, parent_id,
        sort_key, type, style, data)
      VALUES (NEW.project_id, NEW.id, revision, 'content', NEW.column_id, NEW.sort_key,
        NEW.type, NEW.style, NEW.data)
      ON CONFLICT (project_id, id, from_revision) DO UPDATE SET to_revision = NULL,
        parent_id = EXCLUDED.parent_id, sort_key = EXCLUDED.sort_key, type = EXCLUDED.type,
        style = EXCLUDED.style, data = EXCLUDED.data;
  END CASE;
  RETURN NULL;
END
$$;
