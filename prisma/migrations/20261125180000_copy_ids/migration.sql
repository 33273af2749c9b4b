-- The id of the copy of the node `original` made by the copy `copy` (a duplicate, see
-- apps/api/src/layout/repositories/sql/copy-node.sql.ts): a UUIDv7 of the transaction's time
-- whose other bits are a digest of both ids. A copy's statement then names the copy of any node
-- of the subtree, a parent's for its children, without looking it up: no join whose plan could
-- go wrong on a project the statistics have not seen yet. Written by hand (Prisma models no
-- functions).
CREATE FUNCTION uuid_v7_copy(original uuid, copy uuid) RETURNS uuid
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT encode(
    set_bit(set_bit(set_bit(set_bit(set_bit(set_bit(
      overlay(decode(md5(original::text || copy::text), 'hex')
        placing substring(int8send(floor(extract(epoch FROM now()) * 1000)::bigint) FROM 3)
        FROM 1 FOR 6),
      52, 1), 53, 1), 54, 1), 55, 0), 70, 0), 71, 1),
    'hex')::uuid
$$;
