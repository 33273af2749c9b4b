-- The pruning of a project's history past what is kept, which every write that records a
-- revision asks for (RECORD_REVISION in apps/api/src/layout/repositories/sql/changes.sql.ts).
-- It works on every 16th revision only, and does nothing on the others. As two DELETEs in each
-- write statement, PostgreSQL set up both of them at every write, on the fifteen revisions of
-- sixteen that prune nothing too: that set-up cost a move about a tenth of its throughput.
CREATE FUNCTION layout_prune_history(of_project uuid, at_revision integer, keep integer)
RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF keep IS NULL OR at_revision % 16 <> 0 THEN
    RETURN;
  END IF;
  DELETE FROM revisions h
  WHERE h.project_id = of_project AND h.revision <= at_revision - keep;
  -- A version that ended at the oldest kept revision's successor is still part of that state.
  DELETE FROM node_versions v
  WHERE v.project_id = of_project AND v.to_revision <= at_revision - keep + 1;
END
$$;
