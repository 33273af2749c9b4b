import { type IdempotencyRequest } from '../../common/http/idempotency';
import { Representation } from '../../common/http/representation';
import { SerializedJson } from '../../common/json/serialized-json';
import { IdempotencyKeyReusedError } from '../../common/errors';
import { type SqlSession } from '../../database/sql-session';
import { type IdempotencyKeysRepository } from '../repositories/idempotency-keys.repository';

/** What a create answers when it succeeds. */
const CREATED = 201;

/**
 * Runs `create` in the caller's transaction at most once per `Idempotency-Key`: the key is
 * taken in the same transaction and the answer kept with it, so the key exists exactly when
 * the create committed. A retry with the key and the same request replays the kept answer
 * (201, the same body, ETag, Location and revision) without creating again; with another
 * request it answers 422. Two at once (on any instance) meet on the key's row: the second
 * waits for the first's commit, then replays. A create that failed kept nothing (its
 * transaction rolled back), so its retry runs again. Without a key, `create` simply runs.
 */
export async function createIdempotently<T>(
  tx: SqlSession,
  keys: IdempotencyKeysRepository,
  accountId: string,
  request: IdempotencyRequest | undefined,
  create: () => Promise<Representation<T>>,
): Promise<Representation<T>> {
  if (request === undefined) return create();
  const key = { accountId, key: request.key };
  if (!(await keys.claim(tx, key, request.fingerprint))) {
    const kept = await keys.find(tx, key);
    if (kept === undefined || kept.fingerprint !== request.fingerprint) {
      throw new IdempotencyKeyReusedError();
    }
    return Representation.of(new SerializedJson<T>(kept.body), {
      etag: kept.etag ?? undefined,
      location: kept.location ?? undefined,
      projectRevision: kept.projectRevision ?? undefined,
    });
  }
  const answer = await create();
  await keys.remember(tx, key, {
    status: CREATED,
    body: answer.body?.text ?? '',
    etag: answer.headers.etag ?? null,
    location: answer.headers.location ?? null,
    projectRevision: answer.headers.projectRevision ?? null,
  });
  return answer;
}
