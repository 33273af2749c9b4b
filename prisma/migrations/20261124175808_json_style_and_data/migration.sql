-- Styles and data as json, not jsonb: PostgreSQL keeps the text the service wrote, and every
-- document embeds it as it is, instead of writing jsonb out as text again for every content of
-- every read (the bulk of building a project's document). Nothing queries inside them.
--
-- jsonb converted to json is jsonb's own text, the very text the documents embedded so far:
-- every stored document keeps its bytes, so the tags (ETag) and the size counters
-- (children_bytes) stay true without a recount.

-- AlterTable
ALTER TABLE "blocks" ALTER COLUMN "style" SET DATA TYPE JSON USING "style"::json;

-- AlterTable
ALTER TABLE "contents" ALTER COLUMN "style" SET DATA TYPE JSON USING "style"::json,
ALTER COLUMN "data" SET DATA TYPE JSON USING "data"::json;
