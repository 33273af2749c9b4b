-- The pruning of a project's history deletes what fell out of the kept window since the last
-- pruning (the sixteen revisions before it, and the versions they closed), found by both ends
-- of a range on the primary key of `revisions` and the index on `(project_id, to_revision)`.
-- Bounded only above, each pruning's range began at the project's first revision and walked
-- the entries of everything pruned before it, which stay in the indexes until a vacuum removes
-- them: with autovacuum off, or behind, every write of a busy project paid for its whole past
-- (bench/results/changes.md).
--
-- Revisions are consecutive and each one commits once, so the windows of the 16th revisions
-- cover every revision once while HISTORY_REVISIONS stays the same. When it shrinks, the
-- revisions between the old and the new bound are already hidden from every read (KEPT_BY in
-- history.sql.ts) and are deleted at the next 1024th revision, which prunes everything past
-- what is kept, as before.
CREATE OR REPLACE FUNCTION layout_prune_history(of_project uuid, at_revision integer, keep integer)
RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  -- The newest revision the previous pruning deleted, or before the first one.
  pruned integer := CASE WHEN at_revision % 1024 = 0 THEN -2147483647
    ELSE at_revision - 16 - keep END;
BEGIN
  IF keep IS NULL OR at_revision % 16 <> 0 THEN
    RETURN;
  END IF;
  DELETE FROM revisions h
  WHERE h.project_id = of_project AND h.revision > pruned AND h.revision <= at_revision - keep;
  -- A version that ended at the oldest kept revision's successor is still part of that state.
  DELETE FROM node_versions v
  WHERE v.project_id = of_project AND v.to_revision > pruned + 1
    AND v.to_revision <= at_revision - keep + 1;
END
$$;
