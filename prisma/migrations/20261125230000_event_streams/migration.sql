-- Live changes: the single-use tickets of `GET /projects/<p>/events?ticket=` (a browser's
-- EventSource cannot send a bearer token), and the streams each account has open, on any
-- instance, for the limit of 10. A stream's row is a lease its instance renews while the stream
-- is open: the row of an instance that died expires by itself.

CREATE TABLE "event_tickets" (
    "ticket_hash" CHAR(64) NOT NULL,
    "account_id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "event_tickets_pkey" PRIMARY KEY ("ticket_hash")
);

CREATE TABLE "event_streams" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "event_streams_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "event_tickets_expires_at_idx" ON "event_tickets"("expires_at");
CREATE INDEX "event_streams_account_id_idx" ON "event_streams"("account_id");

ALTER TABLE "event_tickets" ADD CONSTRAINT "event_tickets_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "event_tickets" ADD CONSTRAINT "event_tickets_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "event_streams" ADD CONSTRAINT "event_streams_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
