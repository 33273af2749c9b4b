import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { QUERY_MODULES, renderQueryFiles } from '../../../../scripts/sql/query-files';

// As the layout's (layout/queries.spec.ts): what publishing, the assets and the members send,
// written out.
describe('the query files of publishing, the assets and the members', () => {
  it.each(QUERY_MODULES.slice(1).map((module) => [module.queries, module] as const))(
    '%s are what the repositories build today (refresh them with `npm run sql:queries`)',
    (_folder, module) => {
      const rendered = renderQueryFiles(module);
      expect(rendered.size).toBeGreaterThan(0);
      expect(readdirSync(module.queries).sort()).toEqual([...rendered.keys()].sort());
      for (const [name, text] of rendered) {
        expect({ name, text: readFileSync(join(module.queries, name), 'utf8') }).toEqual({
          name,
          text,
        });
      }
    },
  );
});
