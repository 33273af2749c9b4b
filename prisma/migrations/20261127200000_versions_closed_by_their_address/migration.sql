-- A node's open version is closed through the address (`ctid`) of its latest version, found by
-- a seek on the primary key: row comparisons bounded by the node's key, in the primary key's
-- order. Looked up by equalities and `ORDER BY from_revision DESC LIMIT 1`, PostgreSQL could
-- take the index on `(project_id, from_revision)` or on `to_revision` instead, and on a fresh
-- database's guess of a few versions per project it did: each lookup read the project's
-- versions until it met the node's, once per node closed, and deleting a block of 4 000 nodes
-- in a project of 16 000 outran the database's deadline. Even the row comparisons it turned into
-- a range on `project_id`, incrementally sorted, which reads the whole project before its first
-- row. Without sorts only the primary key gives the order, and a TID scan then costs one row.
-- The statement-level function says so itself; the per-row one would pay for a `SET` clause at
-- every row, so it relies on the service's connections, which plan without incremental sorts
-- (database-pool.ts).

-- Nodes that go with their project need nothing closed: the project's versions went before
-- them (projects_delete_versions). The function plans its own statement with nested loops, as a
-- lookup per node needs, even when it runs beneath a restore, which plans without them.
CREATE OR REPLACE FUNCTION layout_close_versions() RETURNS trigger
LANGUAGE plpgsql
SET enable_nestloop = on SET enable_sort = off SET enable_incremental_sort = off AS $$
BEGIN
  IF layout_write_revision() IS NULL
    OR NOT EXISTS (SELECT 1 FROM projects p WHERE p.id = (SELECT g.project_id FROM gone g LIMIT 1))
  THEN
    RETURN NULL;
  END IF;
  UPDATE node_versions v SET to_revision = layout_write_revision()
  FROM gone g CROSS JOIN LATERAL (
    SELECT l.ctid AS address, l.project_id, l.id, l.to_revision FROM node_versions l
    WHERE (l.project_id, l.id, l.from_revision) >= (g.project_id, g.id, -2147483648)
      AND (l.project_id, l.id, l.from_revision) <= (g.project_id, g.id, 2147483647)
    ORDER BY l.project_id DESC, l.id DESC, l.from_revision DESC LIMIT 1) latest
  WHERE v.ctid = latest.address AND latest.project_id = g.project_id AND latest.id = g.id
    AND latest.to_revision IS NULL;
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
  WHERE v.ctid = (SELECT l.ctid FROM node_versions l
      WHERE (l.project_id, l.id, l.from_revision) >= (NEW.project_id, NEW.id, -2147483648)
        AND (l.project_id, l.id, l.from_revision) <= (NEW.project_id, NEW.id, 2147483647)
      ORDER BY l.project_id DESC, l.id DESC, l.from_revision DESC LIMIT 1)
    AND v.project_id = NEW.project_id AND v.id = NEW.id
    AND v.to_revision IS NULL AND v.from_revision < revision;
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
