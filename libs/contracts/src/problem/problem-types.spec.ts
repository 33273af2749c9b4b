import { PROBLEM_STATUSES, PROBLEM_TITLES, PROBLEM_TYPES } from './problem-types';

describe('problem types', () => {
  it('gives every type a path under /problems/, a title and a status', () => {
    const types = Object.values(PROBLEM_TYPES);
    expect(types).toHaveLength(Object.keys(PROBLEM_TITLES).length);
    expect(new Set(types).size).toBe(types.length);
    for (const type of types) {
      expect(type).toMatch(/^\/problems\/[a-z-]+$/);
      expect(PROBLEM_TITLES[type]).toEqual(expect.any(String));
      expect(PROBLEM_STATUSES[type]).toBeGreaterThanOrEqual(400);
    }
    expect(PROBLEM_TITLES[PROBLEM_TYPES.validation]).toBe('Invalid request body');
    expect(PROBLEM_STATUSES[PROBLEM_TYPES.rowWidthExceeded]).toBe(409);
    expect(PROBLEM_STATUSES[PROBLEM_TYPES.databaseUnavailable]).toBe(503);
    expect(PROBLEM_TYPES.methodNotAllowed).toBe('/problems/method-not-allowed');
    expect(PROBLEM_TITLES[PROBLEM_TYPES.methodNotAllowed]).toBe('Method not allowed');
    expect(PROBLEM_STATUSES[PROBLEM_TYPES.methodNotAllowed]).toBe(405);
    expect(PROBLEM_STATUSES[PROBLEM_TYPES.wrongPassword]).toBe(403);
    expect(PROBLEM_TYPES.recentSignInRequired).toBe('/problems/recent-sign-in-required');
    expect(PROBLEM_STATUSES[PROBLEM_TYPES.recentSignInRequired]).toBe(403);
  });
});
