import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  committedQueryFiles,
  layoutStatements,
  QUERIES_DIR,
  renderQueryFiles,
  strayStatements,
} from '../../../../scripts/sql/query-files';
import { isTreeWrite } from './repositories/sql/changes.sql';
import { isRestoreStatement } from './repositories/sql/history.sql';

// The committed query files are what the repositories send: a reviewer reads the SQL that runs.
describe('the layout’s query files (apps/api/src/layout/queries)', () => {
  it('are what the repositories build today (refresh them with `npm run sql:queries`)', () => {
    const rendered = renderQueryFiles();
    expect(committedQueryFiles().sort()).toEqual([...rendered.keys()].sort());
    for (const [name, text] of rendered) {
      // Compared whole: a drift names the file and shows the difference.
      expect({ name, text: readFileSync(join(QUERIES_DIR, name), 'utf8') }).toEqual({ name, text });
    }
  });

  it('hold every statement of the layout, each named after the repository that sends it', () => {
    expect(strayStatements()).toEqual([]);
    for (const [repository, statements] of layoutStatements()) {
      expect([repository, statements.length > 0]).toEqual([repository, true]);
    }
  });

  it('show no statement that writes the tree beneath a project without stating what it changed', () => {
    // A write beneath a project goes through treeWriteStatement, which follows its `changed`
    // nodes up their paths (revisions, counts, bytes). A project's own insert, copy and delete
    // make or remove a whole tree: there is nothing above it to follow. A restore rewrites the
    // whole tree and counts it again, bottom up.
    const whole = new Set(['projects.insert', 'projects.copy', 'projects.delete']);
    const writes =
      /\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(projects|blocks|rows|columns|contents)\b/i;
    const unfollowed = [...layoutStatements().values()]
      .flat()
      .filter((statement) => writes.test(statement.text))
      .filter((statement) => !isTreeWrite(statement) && !whole.has(statement.name))
      .filter((statement) => !isRestoreStatement(statement))
      .map((statement) => statement.name);
    expect(unfollowed).toEqual([]);
  });
});
