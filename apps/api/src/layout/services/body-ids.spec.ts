import { ResourceNotFoundError } from '../../common/errors';
import { newNodeId, parentIdOf } from './body-ids';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The milliseconds a UUIDv7 carries in its first 48 bits. */
const millisecondsOf = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);

describe('newNodeId', () => {
  it('makes distinct UUIDv7s of the current time, past the random bytes one draw holds', () => {
    const before = Date.now();
    const ids = Array.from({ length: 1000 }, () => newNodeId());
    const after = Date.now();
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(id).toMatch(UUID_V7);
      expect(millisecondsOf(id)).toBeGreaterThanOrEqual(before);
      expect(millisecondsOf(id)).toBeLessThanOrEqual(after);
    }
  });

  it('gives each id random bytes of its own (no two share their random tail)', () => {
    const tails = Array.from({ length: 600 }, () => newNodeId().slice(19));
    expect(new Set(tails).size).toBe(tails.length);
  });
});

describe('parentIdOf', () => {
  it('is null when the body leaves the parent out, and the id when it is one', () => {
    const id = newNodeId();
    expect(parentIdOf(undefined, 'Column')).toBeNull();
    expect(parentIdOf(id, 'Column')).toBe(id);
  });

  it('answers 404 for an id of the wrong shape', () => {
    expect(() => parentIdOf('not-an-id', 'Column')).toThrow(ResourceNotFoundError);
  });
});
