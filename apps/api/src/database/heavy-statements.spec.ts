import { HEAVY_ANSWER_BYTES, HeavyStatements } from './heavy-statements';

describe('HeavyStatements', () => {
  const statements = new HeavyStatements();
  const key = statements.keyOf('projects.document', { projectId: 'p1' });

  it('knows nothing heavy at first, then remembers a large answer for the same read', () => {
    expect(statements.isHeavy(key)).toBe(false);
    statements.record(key, [{ json: 'x'.repeat(HEAVY_ANSWER_BYTES), revision: 3 }]);
    expect(statements.isHeavy(key)).toBe(true);
    expect(statements.isHeavy(statements.keyOf('projects.document', { projectId: 'p2' }))).toBe(
      false,
    );
  });

  it('forgets it once the answer is small again', () => {
    statements.record(key, [{ json: '{}' }]);
    expect(statements.isHeavy(key)).toBe(false);
  });

  it('takes no answer as small', () => {
    statements.record(key, []);
    expect(statements.isHeavy(key)).toBe(false);
  });
});
