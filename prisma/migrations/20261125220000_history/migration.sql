-- Editing together, step 3: the history of every project, recorded by the database itself.
--
-- Every write of the tree runs behind the project's lock, which sets the revision it creates
-- (`layout.revision`), what the request does (`layout.operation`), the path it addressed
-- (`layout.path`) and how many revisions are kept (`layout.history_revisions`), all local to the
-- transaction (apps/api/src/layout/repositories/projects.repository.ts). The triggers below read
-- them, so no statement can change the tree without its revision being recorded, in the same
-- transaction: not a new write path, a copy of 20 000 nodes, a cascade of deletes, nor a restore.
--
-- `revisions`: one row per revision (what the request did, the project's title and time then);
-- its trigger also notifies `layout_changes`, which PostgreSQL delivers at commit, in commit
-- order, to every instance (the live changes).
-- `node_versions`: each node's members and place over a range of revisions [from, to), to NULL
-- while current. A write adds a version for each node whose members or place it changed and
-- closes the one before, so what a revision stores grows with what it changed; the bookkeeping
-- columns (revision, counts, bytes) are not versioned. The state at revision n is the versions
-- whose range holds n. Written by hand: Prisma models neither triggers nor functions.

CREATE TABLE "revisions" (
    "project_id" UUID NOT NULL,
    "revision" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "operation" VARCHAR(40) NOT NULL,
    "path" VARCHAR(400) NOT NULL,
    "title" VARCHAR(200) NOT NULL,

    CONSTRAINT "revisions_pkey" PRIMARY KEY ("project_id","revision")
);

CREATE TABLE "node_versions" (
    "project_id" UUID NOT NULL,
    "id" UUID NOT NULL,
    "from_revision" INTEGER NOT NULL,
    "to_revision" INTEGER,
    "level" VARCHAR(7) NOT NULL,
    "parent_id" UUID,
    "sort_key" BIGINT NOT NULL,
    "description" VARCHAR(500),
    "style" JSON,
    "size" SMALLINT,
    "type" "content_type",
    "data" JSON,
    "created_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3),

    CONSTRAINT "node_versions_pkey" PRIMARY KEY ("project_id","id","from_revision")
);

CREATE INDEX "node_versions_project_id_from_revision_idx" ON "node_versions"("project_id", "from_revision");
CREATE INDEX "node_versions_project_id_to_revision_idx" ON "node_versions"("project_id", "to_revision");

ALTER TABLE "revisions" ADD CONSTRAINT "revisions_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "node_versions" ADD CONSTRAINT "node_versions_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The revision the transaction's write creates, or NULL outside a write (a migration, a purge).
CREATE FUNCTION layout_write_revision() RETURNS integer
LANGUAGE sql STABLE AS $$
  SELECT NULLIF(current_setting('layout.revision', true), '')::int
$$;

-- A revision: recorded, announced, and the history beyond what is kept pruned. Pruning runs
-- every 16th revision (reads never show what is past the window, pruned or not), by index.
CREATE FUNCTION layout_record_revision() RETURNS trigger
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
  PERFORM pg_notify('layout_changes', NEW.id || ' ' || NEW.revision);
  IF NEW.revision % 16 = 0 AND NEW.revision > kept THEN
    DELETE FROM revisions r WHERE r.project_id = NEW.id AND r.revision <= NEW.revision - kept;
    DELETE FROM node_versions v
      WHERE v.project_id = NEW.id AND v.to_revision <= NEW.revision - kept + 1;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "projects_record_revision" AFTER INSERT ON "projects"
  FOR EACH ROW EXECUTE FUNCTION layout_record_revision();
CREATE TRIGGER "projects_record_revision_update" AFTER UPDATE ON "projects"
  FOR EACH ROW WHEN (OLD.revision IS DISTINCT FROM NEW.revision OR OLD.title IS DISTINCT FROM NEW.title)
  EXECUTE FUNCTION layout_record_revision();

-- Nodes that go (with their subtrees, through the cascades): their versions end here.
CREATE FUNCTION layout_close_versions() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF layout_write_revision() IS NULL THEN RETURN NULL; END IF;
  UPDATE node_versions v SET to_revision = layout_write_revision()
  FROM gone g
  WHERE v.project_id = g.project_id AND v.id = g.id AND v.to_revision IS NULL;
  RETURN NULL;
END
$$;

-- One function per level for new nodes (a statement's inserts at once: a copy is one insert of
-- its versions) and one for changed nodes. A new node's version starts at its own revision
-- (the write's, or 1 in a project's copy). A version of this very revision is replaced: a
-- restore may delete a node and insert it again.
CREATE FUNCTION layout_version_new_blocks() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO node_versions AS v (project_id, id, from_revision, level, sort_key, description,
    style, created_at, updated_at)
  SELECT n.project_id, n.id, n.revision, 'block', n.sort_key, n.description, n.style,
    n.created_at, n.updated_at
  FROM added n
  ON CONFLICT (project_id, id, from_revision) DO UPDATE SET to_revision = NULL,
    sort_key = EXCLUDED.sort_key, description = EXCLUDED.description, style = EXCLUDED.style,
    created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at;
  RETURN NULL;
END
$$;

CREATE FUNCTION layout_version_new_rows() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO node_versions AS v (project_id, id, from_revision, level, parent_id, sort_key,
    description)
  SELECT n.project_id, n.id, n.revision, 'row', n.block_id, n.sort_key, n.description
  FROM added n
  ON CONFLICT (project_id, id, from_revision) DO UPDATE SET to_revision = NULL,
    parent_id = EXCLUDED.parent_id, sort_key = EXCLUDED.sort_key,
    description = EXCLUDED.description;
  RETURN NULL;
END
$$;

CREATE FUNCTION layout_version_new_columns() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO node_versions AS v (project_id, id, from_revision, level, parent_id, sort_key, size)
  SELECT n.project_id, n.id, n.revision, 'column', n.row_id, n.sort_key, n.size
  FROM added n
  ON CONFLICT (project_id, id, from_revision) DO UPDATE SET to_revision = NULL,
    parent_id = EXCLUDED.parent_id, sort_key = EXCLUDED.sort_key, size = EXCLUDED.size;
  RETURN NULL;
END
$$;

CREATE FUNCTION layout_version_new_contents() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO node_versions AS v (project_id, id, from_revision, level, parent_id, sort_key,
    type, style, data)
  SELECT n.project_id, n.id, n.revision, 'content', n.column_id, n.sort_key, n.type, n.style,
    n.data
  FROM added n
  ON CONFLICT (project_id, id, from_revision) DO UPDATE SET to_revision = NULL,
    parent_id = EXCLUDED.parent_id, sort_key = EXCLUDED.sort_key, type = EXCLUDED.type,
    style = EXCLUDED.style, data = EXCLUDED.data;
  RETURN NULL;
END
$$;

-- A node whose members or place changed: the version before ends, this one starts.
CREATE FUNCTION layout_version_changed_node() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  revision integer := layout_write_revision();
BEGIN
  IF revision IS NULL THEN RETURN NULL; END IF;
  UPDATE node_versions v SET to_revision = revision
  WHERE v.project_id = NEW.project_id AND v.id = NEW.id AND v.to_revision IS NULL
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

CREATE TRIGGER "blocks_version_new" AFTER INSERT ON "blocks"
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION layout_version_new_blocks();
CREATE TRIGGER "rows_version_new" AFTER INSERT ON "rows"
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION layout_version_new_rows();
CREATE TRIGGER "columns_version_new" AFTER INSERT ON "columns"
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION layout_version_new_columns();
CREATE TRIGGER "contents_version_new" AFTER INSERT ON "contents"
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION layout_version_new_contents();

-- The WHEN clauses run without calling the function: the ancestors' bookkeeping updates of
-- every write (revisions, counts, bytes) cost nothing here. JSON has no equality: its text is
-- what the answers carry, so that is what is compared.
CREATE TRIGGER "blocks_version_changed" AFTER UPDATE ON "blocks" FOR EACH ROW
  WHEN (OLD.sort_key IS DISTINCT FROM NEW.sort_key
    OR OLD.description IS DISTINCT FROM NEW.description
    OR OLD.updated_at IS DISTINCT FROM NEW.updated_at
    OR OLD.style::text IS DISTINCT FROM NEW.style::text)
  EXECUTE FUNCTION layout_version_changed_node();
CREATE TRIGGER "rows_version_changed" AFTER UPDATE ON "rows" FOR EACH ROW
  WHEN (OLD.sort_key IS DISTINCT FROM NEW.sort_key OR OLD.block_id IS DISTINCT FROM NEW.block_id
    OR OLD.description IS DISTINCT FROM NEW.description)
  EXECUTE FUNCTION layout_version_changed_node();
CREATE TRIGGER "columns_version_changed" AFTER UPDATE ON "columns" FOR EACH ROW
  WHEN (OLD.sort_key IS DISTINCT FROM NEW.sort_key OR OLD.row_id IS DISTINCT FROM NEW.row_id
    OR OLD.size IS DISTINCT FROM NEW.size)
  EXECUTE FUNCTION layout_version_changed_node();
CREATE TRIGGER "contents_version_changed" AFTER UPDATE ON "contents" FOR EACH ROW
  WHEN (OLD.sort_key IS DISTINCT FROM NEW.sort_key
    OR OLD.column_id IS DISTINCT FROM NEW.column_id OR OLD.type IS DISTINCT FROM NEW.type
    OR OLD.style::text IS DISTINCT FROM NEW.style::text
    OR OLD.data::text IS DISTINCT FROM NEW.data::text)
  EXECUTE FUNCTION layout_version_changed_node();

CREATE TRIGGER "blocks_version_gone" AFTER DELETE ON "blocks"
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION layout_close_versions();
CREATE TRIGGER "rows_version_gone" AFTER DELETE ON "rows"
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION layout_close_versions();
CREATE TRIGGER "columns_version_gone" AFTER DELETE ON "columns"
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION layout_close_versions();
CREATE TRIGGER "contents_version_gone" AFTER DELETE ON "contents"
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION layout_close_versions();

-- The projects that exist start their history at their current revision.
INSERT INTO revisions (project_id, revision, created_at, operation, path, title)
SELECT p.id, p.revision, p.updated_at, 'history.start', '/projects/' || p.id, p.title
FROM projects p;
INSERT INTO node_versions (project_id, id, from_revision, level, sort_key, description, style,
  created_at, updated_at)
SELECT b.project_id, b.id, p.revision, 'block', b.sort_key, b.description, b.style,
  b.created_at, b.updated_at
FROM blocks b JOIN projects p ON p.id = b.project_id;
INSERT INTO node_versions (project_id, id, from_revision, level, parent_id, sort_key, description)
SELECT r.project_id, r.id, p.revision, 'row', r.block_id, r.sort_key, r.description
FROM rows r JOIN projects p ON p.id = r.project_id;
INSERT INTO node_versions (project_id, id, from_revision, level, parent_id, sort_key, size)
SELECT c.project_id, c.id, p.revision, 'column', c.row_id, c.sort_key, c.size
FROM columns c JOIN projects p ON p.id = c.project_id;
INSERT INTO node_versions (project_id, id, from_revision, level, parent_id, sort_key, type,
  style, data)
SELECT ct.project_id, ct.id, p.revision, 'content', ct.column_id, ct.sort_key, ct.type,
  ct.style, ct.data
FROM contents ct JOIN projects p ON p.id = ct.project_id;
