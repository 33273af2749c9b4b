-- Usernames follow the PRECIS UsernameCaseMapped profile (RFC 8265) from now on: the key that
-- uniqueness and sign-in compare is the username trimmed, in Unicode NFKC (fullwidth and
-- halfwidth forms become ordinary ones), lower-cased; it was NFC, lower-cased. Existing keys are
-- re-keyed the same way, so that every account keeps signing in with what its owner types. Data
-- only: the schema does not change.
--
-- The new key is derived from the stored key rather than from `username`: the stored key was
-- lower-cased by the service with JavaScript's full Unicode case mapping (final sigma, U+0130),
-- while PostgreSQL's lower() follows the database's locale (only ASCII under "C"). Here lower()
-- only has to lower what NFKC itself turns into capitals (mathematical and fullwidth forms, which
-- have no lower case of their own), nearly always ASCII. The trimmed characters are exactly those
-- of JavaScript's String.prototype.trim().
--
-- Accounts whose new keys collide (" alice" signed up beside "alice") cannot both have it: the
-- account whose key is already the new one keeps it, otherwise the oldest account gets it. The
-- others keep their old key, which no sign-in produces any more; an operator finds them with
--   SELECT id, username, created_at FROM accounts
--   WHERE username_key <> lower(normalize(btrim(username_key, <the characters below>), NFKC));
-- So does an account whose new key would be longer than the column.

CREATE TEMPORARY TABLE "rekeyed_accounts" ON COMMIT DROP AS
SELECT "id", "username_key" AS "old_key", "new_key",
       row_number() OVER (
         PARTITION BY "new_key"
         ORDER BY ("username_key" = "new_key") DESC, "created_at", "id"
       ) AS "rank"
FROM (
  SELECT "id", "username_key", "created_at",
         lower(normalize(btrim("username_key",
           E'\u0009\u000A\u000B\u000C\u000D\u0020\u00A0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF'),
           NFKC)) AS "new_key"
  FROM "accounts"
) AS "keys";

UPDATE "accounts" AS a
SET "username_key" = r."new_key"
FROM "rekeyed_accounts" AS r
WHERE a."id" = r."id"
  AND r."rank" = 1
  AND r."old_key" <> r."new_key"
  AND char_length(r."new_key") <= 254;
