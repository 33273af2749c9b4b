-- An event stream, and a ticket for one, belong to the bearer token that opened or asked for
-- it: revoking the token (deleting its row: a sign-out, a sign-out everywhere, an account's
-- deletion) deletes them, and the instance holding the stream ends it when it next renews its
-- lease (apps/api/src/layout/events/change-feed.ts). Tickets live a minute and leases are
-- renewed within one: those from before this migration are dropped, and the streams they held
-- end; their clients reconnect.

DELETE FROM "event_tickets";
DELETE FROM "event_streams";

ALTER TABLE "event_tickets" ADD COLUMN "token_hash" CHAR(64) NOT NULL;
ALTER TABLE "event_streams" ADD COLUMN "token_hash" CHAR(64) NOT NULL;

CREATE INDEX "event_tickets_token_hash_idx" ON "event_tickets"("token_hash");
CREATE INDEX "event_streams_token_hash_idx" ON "event_streams"("token_hash");

ALTER TABLE "event_tickets" ADD CONSTRAINT "event_tickets_token_hash_fkey" FOREIGN KEY ("token_hash") REFERENCES "access_tokens"("token_hash") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "event_streams" ADD CONSTRAINT "event_streams_token_hash_fkey" FOREIGN KEY ("token_hash") REFERENCES "access_tokens"("token_hash") ON DELETE CASCADE ON UPDATE CASCADE;
