import { HEAVY_ANSWER_BYTES, HeavyStatements } from './heavy-statements';

describe('HeavyStatements', () => {
  const statements = new HeavyStatements();
  const read = 'projects.document';

  it('knows nothing heavy at first, then remembers a large answer for the same read', () => {
    expect(statements.isHeavy(read, { projectId: 'p1' })).toBe(false);
    const size = statements.record(read, { projectId: 'p1' }, [
      { json: 'x'.repeat(HEAVY_ANSWER_BYTES), revision: 3 },
    ]);
    expect(size).toBe(HEAVY_ANSWER_BYTES);
    expect(statements.isHeavy(read, { projectId: 'p1' })).toBe(true);
    expect(statements.isHeavy(read, { projectId: 'p2' })).toBe(false);
    expect(statements.isHeavy('contents.document', { projectId: 'p1' })).toBe(false);
  });

  it('forgets it once the answer is small again, and takes no answer as small', () => {
    expect(statements.record(read, { projectId: 'p1' }, [{ json: '{}' }])).toBe(0);
    expect(statements.isHeavy(read, { projectId: 'p1' })).toBe(false);
    expect(statements.record(read, { projectId: 'p1' }, [])).toBe(0);
  });
});
