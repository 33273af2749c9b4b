import { bindParameters, sqlStatement } from './sql-statement';

// Statement names are unique per process; every test here uses its own.
describe('sqlStatement', () => {
  it('compiles $name parameters to $1..$n in order of first appearance', () => {
    const statement = sqlStatement<{ projectId: string; accountId: string }>(
      'spec.positional',
      'SELECT 1 FROM projects p WHERE p.id = $projectId AND p.owner_id = $accountId',
    );
    expect(statement.name).toBe('spec.positional');
    expect(statement.text).toBe('SELECT 1 FROM projects p WHERE p.id = $1 AND p.owner_id = $2');
    expect(statement.parameters).toEqual(['projectId', 'accountId']);
  });

  it('gives a name used several times a single position', () => {
    const statement = sqlStatement<{ revision: number; id: string }>(
      'spec.repeated',
      'UPDATE t SET revision = $revision, list_revision = $revision WHERE id = $id AND $revision > 0',
    );
    expect(statement.text).toBe(
      'UPDATE t SET revision = $1, list_revision = $1 WHERE id = $2 AND $1 > 0',
    );
    expect(statement.parameters).toEqual(['revision', 'id']);
  });

  it('keeps casts right after a parameter and tells apart names that share a prefix', () => {
    const statement = sqlStatement<{ row: string; rowId: string }>(
      'spec.prefix',
      'SELECT $rowId::uuid, $row::text, $rowId',
    );
    expect(statement.text).toBe('SELECT $1::uuid, $2::text, $1');
    expect(statement.parameters).toEqual(['rowId', 'row']);
  });

  it('leaves a statement without parameters as it is', () => {
    const statement = sqlStatement('spec.no-parameters', 'SELECT now()');
    expect(statement.text).toBe('SELECT now()');
    expect(statement.parameters).toEqual([]);
  });

  it('accepts the same name twice for the same text (a module evaluated again)', () => {
    const sql = 'SELECT $a';
    const first = sqlStatement<{ a: number }>('spec.same-twice', sql);
    expect(sqlStatement<{ a: number }>('spec.same-twice', sql)).toEqual(first);
  });

  it.each([
    ['a positional parameter beside named ones', 'SELECT $1, $a'],
    ['dollar quoting', 'DO $$begin null; end$$'],
    ['tagged dollar quoting', 'SELECT $q$text$q$'],
  ])('refuses %s, which named parameters would be mixed up with', (_what, sql) => {
    expect(() => sqlStatement(`refused ${sql}`, sql)).toThrow('use $camelCase parameters only');
  });

  it('throws when two different texts are given the same name', () => {
    sqlStatement('spec.clash', 'SELECT 1');
    expect(() => sqlStatement('spec.clash', 'SELECT 2')).toThrow(
      'Two different SQL statements are named spec.clash',
    );
  });

  it('compares the compiled texts: different parameter names at the same places are the same statement', () => {
    sqlStatement<{ a: number }>('spec.compiled-text', 'SELECT $a');
    expect(() => sqlStatement<{ b: number }>('spec.compiled-text', 'SELECT $b')).not.toThrow();
  });
});

describe('bindParameters', () => {
  const statement = sqlStatement<{ title: string; projectId: string; revision: number }>(
    'spec.bind',
    'UPDATE projects SET title = $title, revision = $revision WHERE id = $projectId AND revision < $revision',
  );

  it('orders the values by position, whatever the order of the object', () => {
    expect(bindParameters(statement, { revision: 8, projectId: 'p1', title: 'New' })).toEqual([
      'New',
      8,
      'p1',
    ]);
  });

  it('binds null and falsy values as they are', () => {
    expect(bindParameters(statement, { title: '', projectId: 'p1', revision: 0 })).toEqual([
      '',
      0,
      'p1',
    ]);
    const nullable = sqlStatement<{ sortKey: string | null }>('spec.bind-null', 'SELECT $sortKey');
    expect(bindParameters(nullable, { sortKey: null })).toEqual([null]);
  });

  it('ignores members the statement does not use', () => {
    const extra = { title: 'T', projectId: 'p1', revision: 2, accountId: 'a1' };
    expect(bindParameters(statement, extra)).toEqual(['T', 2, 'p1']);
  });

  it('throws, naming the statement and the parameter, when a value is missing', () => {
    const params = { title: 'T', projectId: 'p1' } as unknown as {
      title: string;
      projectId: string;
      revision: number;
    };
    expect(() => bindParameters(statement, params)).toThrow('spec.bind: no value for $revision');
  });

  it('throws when a value is undefined: only null stands for SQL NULL', () => {
    const params = { title: 'T', projectId: 'p1', revision: undefined } as unknown as {
      title: string;
      projectId: string;
      revision: number;
    };
    expect(() => bindParameters(statement, params)).toThrow('spec.bind: no value for $revision');
    const nullable = sqlStatement<{ sortKey: string | null }>(
      'spec.bind-undefined',
      'SELECT $sortKey',
    );
    expect(() =>
      bindParameters(nullable, { sortKey: undefined } as unknown as { sortKey: null }),
    ).toThrow('spec.bind-undefined: no value for $sortKey');
    expect(bindParameters(nullable, { sortKey: null })).toEqual([null]);
  });

  it('throws when the value is only inherited, as $constructor from {}', () => {
    const inherited = sqlStatement<{ constructor: unknown }>(
      'spec.bind-inherited',
      'SELECT $constructor',
    );
    expect(() => bindParameters(inherited, {})).toThrow(
      'spec.bind-inherited: no value for $constructor',
    );
    const fromPrototype = Object.create({ revision: 8 }) as { revision: number };
    const own = sqlStatement<{ revision: number }>('spec.bind-prototype', 'SELECT $revision');
    expect(() => bindParameters(own, fromPrototype)).toThrow(
      'spec.bind-prototype: no value for $revision',
    );
  });

  it('binds an own value named like an Object.prototype member', () => {
    const inherited = sqlStatement<{ constructor: unknown }>(
      'spec.bind-own-constructor',
      'SELECT $constructor',
    );
    expect(bindParameters(inherited, { constructor: 'c' })).toEqual(['c']);
  });
});
