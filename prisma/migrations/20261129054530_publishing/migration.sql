-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "asset_bytes" BIGINT NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "share_links" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "token_hash" CHAR(64) NOT NULL,
    "revision" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3),
    "views" BIGINT NOT NULL DEFAULT 0,
    "last_viewed_at" TIMESTAMPTZ(3),

    CONSTRAINT "share_links_pkey" PRIMARY KEY ("project_id","id")
);

-- CreateTable
CREATE TABLE "assets" (
    "id" UUID NOT NULL,
    "owner_id" UUID,
    "sha256" CHAR(64) NOT NULL,
    "content_type" VARCHAR(20) NOT NULL,
    "size" INTEGER NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "assets_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "share_links_token_hash_key" ON "share_links"("token_hash");

-- CreateIndex
CREATE INDEX "share_links_project_id_created_at_idx" ON "share_links"("project_id", "created_at");

-- CreateIndex
CREATE INDEX "assets_owner_id_created_at_id_idx" ON "assets"("owner_id", "created_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "assets_owner_id_sha256_key" ON "assets"("owner_id", "sha256");

-- AddForeignKey
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "assets" ADD CONSTRAINT "assets_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "accounts"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Where assets are named: an image content's `url` and any background image that is an asset's
-- path. Prisma cannot express these (expression indexes with a predicate); they make finding
-- where an asset is used (its DELETE, the check that a writer may name it, the sweep of assets
-- of deleted accounts) a lookup instead of a scan of every project's tree. Only the rows that
-- name an asset are in them.
CREATE INDEX "contents_named_asset_idx" ON "contents" ((data ->> 'url'))
  WHERE type = 'image' AND (data ->> 'url') LIKE '/assets/%';
CREATE INDEX "contents_named_background_asset_idx" ON "contents" ((style ->> 'backgroundImage'))
  WHERE (style ->> 'backgroundImage') LIKE '/assets/%';
CREATE INDEX "blocks_named_background_asset_idx" ON "blocks" ((style ->> 'backgroundImage'))
  WHERE (style ->> 'backgroundImage') LIKE '/assets/%';
