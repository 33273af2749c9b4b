import { type IdempotencyRequest } from '../../common/http/idempotency';
import { Representation } from '../../common/http/representation';
import { SerializedJson } from '../../common/json/serialized-json';
import { IdempotencyKeyReusedError } from '../../common/errors';
import { type RoundOf, type Step } from '../../database/unit-of-work';
import {
  type IdempotencyKeysRepository,
  type RememberedAnswer,
} from '../repositories/idempotency-keys.repository';

/** What a create answers when it succeeds. */
export const CREATED = 201;

/**
 * Runs `work` in the caller's transaction at most once per `Idempotency-Key`: the key is taken
 * in the same transaction and the answer kept with it, so the key exists exactly when the work
 * committed. A retry with the key and the same request replays the kept answer (`status`, the
 * same body, ETag, Location and revision) without running again; with another request it
 * answers 422. Two at once (on any instance) meet on the key's row: the second waits for the
 * first's commit, then replays. A work that failed kept nothing (its transaction rolled back),
 * so its retry runs again. Without a key, `work` simply runs.
 */
export function answerOnce<T, R extends RoundOf<R>>(
  round: R,
  keys: IdempotencyKeysRepository,
  accountId: string,
  request: IdempotencyRequest | undefined,
  work: (round: R) => Step<Representation<T>>,
  status = CREATED,
): Step<Representation<T>> {
  if (request === undefined) return work(round);
  const key = { accountId, key: request.key };
  const claimed = keys.claim(round, key, request.fingerprint);
  return round.next((next) => {
    if (!claimed.get()) {
      const kept = keys.find(next, key);
      return next.finish(() => replay<T>(kept.get(), request.fingerprint));
    }
    return work(next).andThen((answer, last) => {
      keys.remember(last, key, {
        status,
        body: answer.body?.text ?? '',
        etag: answer.headers.etag ?? null,
        location: answer.headers.location ?? null,
        projectRevision: answer.headers.projectRevision ?? null,
      });
      return last.finish(() => answer);
    });
  });
}

function replay<T>(kept: RememberedAnswer | undefined, fingerprint: string): Representation<T> {
  if (kept === undefined || kept.fingerprint !== fingerprint) {
    throw new IdempotencyKeyReusedError();
  }
  return Representation.of(new SerializedJson<T>(kept.body), {
    etag: kept.etag ?? undefined,
    location: kept.location ?? undefined,
    projectRevision: kept.projectRevision ?? undefined,
  });
}
