import { CONTENT_DATA_MAX_BYTES, PROJECT_TREE_MAX_BYTES } from '@layout/contracts';
import { LimitExceededError } from '../../common/errors';
import { ContentTooLargeError } from '../errors';
import { assertContentData, assertTreeWithin, assertWithinCount } from './tree-limits';

const MiB = 1024 * 1024;
const KiB = 1024;

/** The error `check` throws, or undefined. */
function thrownBy(check: () => void): unknown {
  try {
    check();
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('tree limits', () => {
  it('uses the contract values: 8 MiB for a tree, 256 KiB for a content’s data', () => {
    expect(PROJECT_TREE_MAX_BYTES).toBe(8 * MiB);
    expect(CONTENT_DATA_MAX_BYTES).toBe(256 * KiB);
  });

  describe('assertWithinCount', () => {
    it('accepts a count up to the limit', () => {
      expect(() => assertWithinCount(0, 500, 'A project')).not.toThrow();
      expect(() => assertWithinCount(500, 500, 'A project')).not.toThrow();
    });

    it('refuses one past the limit with LimitExceededError carrying the limit', () => {
      const error = thrownBy(() => assertWithinCount(501, 500, 'A project'));
      expect(error).toBeInstanceOf(LimitExceededError);
      expect((error as LimitExceededError).limit).toBe(500);
      expect((error as LimitExceededError).message).toBe('A project holds at most 500');
    });
  });

  describe('assertTreeWithin(before, after)', () => {
    const LIMIT = 8 * MiB;

    it('accepts a result at the limit exactly', () => {
      expect(() => assertTreeWithin(LIMIT - 10, LIMIT)).not.toThrow();
    });

    it('refuses a result above the limit that grew, with the limit in bytes', () => {
      const error = thrownBy(() => assertTreeWithin(LIMIT, LIMIT + 1));
      expect(error).toBeInstanceOf(LimitExceededError);
      expect((error as LimitExceededError).limit).toBe(LIMIT);
      expect((error as LimitExceededError).message).toContain('8 MiB');
    });

    it('refuses a write that takes a small tree past the limit in one go', () => {
      expect(thrownBy(() => assertTreeWithin(1000, LIMIT + 1))).toBeInstanceOf(LimitExceededError);
    });

    it('accepts a write that leaves an over-limit tree as large as it was', () => {
      expect(() => assertTreeWithin(LIMIT + 100, LIMIT + 100)).not.toThrow();
    });

    it('accepts a write that shrinks an over-limit tree, even if it stays above the limit', () => {
      expect(() => assertTreeWithin(LIMIT + 100, LIMIT + 50)).not.toThrow();
    });

    it('accepts any growth below the limit', () => {
      expect(() => assertTreeWithin(10, LIMIT - 1)).not.toThrow();
    });
  });

  describe('assertContentData', () => {
    /** A data object whose JSON is exactly `bytes` long: {"html":"xxx…"} */
    const dataOf = (bytes: number, char = 'x') => ({
      html: char.repeat((bytes - '{"html":""}'.length) / Buffer.byteLength(char)),
    });

    it('accepts data of exactly 256 KiB as JSON', () => {
      const data = dataOf(256 * KiB);
      expect(Buffer.byteLength(JSON.stringify(data))).toBe(256 * KiB);
      expect(() => assertContentData(data, '/data')).not.toThrow();
    });

    it('refuses one byte more with ContentTooLargeError (413) naming the pointer', () => {
      const error = thrownBy(() => assertContentData(dataOf(256 * KiB + 1), '/contents/3/data'));
      expect(error).toBeInstanceOf(ContentTooLargeError);
      expect((error as ContentTooLargeError).limitBytes).toBe(256 * KiB);
      expect((error as ContentTooLargeError).pointer).toBe('/contents/3/data');
    });

    it('counts UTF-8 bytes, not characters', () => {
      // 'é' is 2 bytes: 131 067 characters make 262 145 bytes of JSON, over the limit.
      const html = 'é'.repeat((256 * KiB - 10) / 2 + 1);
      expect(html.length).toBeLessThan(256 * KiB);
      expect(thrownBy(() => assertContentData({ html }, '/data'))).toBeInstanceOf(
        ContentTooLargeError,
      );
    });

    it('counts the escapes JSON adds', () => {
      // Each '"' is stored as '\"': 140 000 of them are 280 000 bytes of JSON.
      const html = '"'.repeat(140_000);
      expect(thrownBy(() => assertContentData({ html }, '/data'))).toBeInstanceOf(
        ContentTooLargeError,
      );
    });
  });
});
