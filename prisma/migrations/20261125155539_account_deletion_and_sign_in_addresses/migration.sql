-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "deleted_at" TIMESTAMPTZ(3),
ALTER COLUMN "username_key" DROP NOT NULL;

-- CreateTable
CREATE TABLE "sign_in_addresses" (
    "account_id" UUID NOT NULL,
    "address_digest" CHAR(64) NOT NULL,
    "last_signed_in_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sign_in_addresses_pkey" PRIMARY KEY ("account_id","address_digest")
);

-- CreateIndex
CREATE INDEX "accounts_deleted_at_idx" ON "accounts"("deleted_at");

-- AddForeignKey
ALTER TABLE "sign_in_addresses" ADD CONSTRAINT "sign_in_addresses_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
