-- A node version is written only by the tree's own triggers, in the transaction of a write that
-- holds its project's lock, so it cannot name a project that does not exist. Its key to
-- `projects` was checked for every version written all the same, and a project copy writes one
-- version per node. The key's one other job, deleting a project's versions with the project
-- (and with its owner's account), is this trigger's now.
ALTER TABLE "node_versions" DROP CONSTRAINT "node_versions_project_id_fkey";

CREATE FUNCTION layout_delete_project_versions() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM node_versions v USING deleted_projects d WHERE v.project_id = d.id;
  RETURN NULL;
END
$$;

CREATE TRIGGER "projects_delete_versions" AFTER DELETE ON "projects"
REFERENCING OLD TABLE AS deleted_projects
FOR EACH STATEMENT EXECUTE FUNCTION layout_delete_project_versions();
