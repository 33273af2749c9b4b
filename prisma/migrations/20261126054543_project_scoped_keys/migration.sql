-- Toward Citus, sharded by project: a distributed table's primary key and foreign keys must
-- include its distribution column. Every node's key is now (project_id, id), and each node's
-- parent is referenced by (project_id, parent id), so PostgreSQL itself also refuses a node
-- whose parent lies in another project. Every statement of the tree already filters each table
-- on project_id, so the same index serves each lookup (the primary key, led by project_id).
--
-- Rebuilding a primary key locks its table; on a large deployment run this in a quiet window.

-- DropForeignKey
ALTER TABLE "columns" DROP CONSTRAINT "columns_row_id_fkey";

-- DropForeignKey
ALTER TABLE "contents" DROP CONSTRAINT "contents_column_id_fkey";

-- DropForeignKey
ALTER TABLE "rows" DROP CONSTRAINT "rows_block_id_fkey";

-- AlterTable
ALTER TABLE "blocks" DROP CONSTRAINT "blocks_pkey",
ADD CONSTRAINT "blocks_pkey" PRIMARY KEY ("project_id", "id");

-- AlterTable
ALTER TABLE "columns" DROP CONSTRAINT "columns_pkey",
ADD CONSTRAINT "columns_pkey" PRIMARY KEY ("project_id", "id");

-- AlterTable
ALTER TABLE "contents" DROP CONSTRAINT "contents_pkey",
ADD CONSTRAINT "contents_pkey" PRIMARY KEY ("project_id", "id");

-- AlterTable
ALTER TABLE "rows" DROP CONSTRAINT "rows_pkey",
ADD CONSTRAINT "rows_pkey" PRIMARY KEY ("project_id", "id");

-- AddForeignKey
ALTER TABLE "rows" ADD CONSTRAINT "rows_project_id_block_id_fkey" FOREIGN KEY ("project_id", "block_id") REFERENCES "blocks"("project_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "columns" ADD CONSTRAINT "columns_project_id_row_id_fkey" FOREIGN KEY ("project_id", "row_id") REFERENCES "rows"("project_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contents" ADD CONSTRAINT "contents_project_id_column_id_fkey" FOREIGN KEY ("project_id", "column_id") REFERENCES "columns"("project_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;
