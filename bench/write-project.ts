import { expectCall, idOf } from './http';
import { type WriteTargets } from './targets';

// The same text as the yardstick's seed.mjs draws its contents from (~300 characters each).
const LOREM =
  'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore ' +
  'et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ' +
  'ex ea commodo consequat. Duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu ' +
  'fugiat nulla pariatur. Excepteur sint occaecat cupidatat non proident, sunt in culpa qui officia deserunt ' +
  'mollit anim id est laborum. Sed ut perspiciatis unde omnis iste natus error sit voluptatem accusantium ' +
  'doloremque laudantium, totam rem aperiam, eaque ipsa quae ab illo inventore veritatis et quasi architecto.';

function html(): string {
  const i = Math.floor(Math.random() * 250);
  return `<p>${LOREM.slice(i, i + 293)}</p>`;
}

interface Row {
  id: string;
  columns: string[];
}

/**
 * A new write project through the service's API, of seed.mjs's shape (5 blocks × 3 rows × 3
 * columns of size 4, each column with 2 text contents), and its `write` member built exactly as
 * seed.mjs's `targets()` builds it. The service caps a column at 1 000 contents and a project at
 * 8 MiB of JSON, limits the yardstick does not have; a fresh project per write run keeps a
 * `create` run from reaching them.
 */
export async function createWriteProject(url: string, token: string): Promise<WriteTargets> {
  const post = async (path: string, body: object) =>
    idOf(await expectCall(201, url, 'POST', path, { token, body }));
  const project = await post('/projects', { title: 'Writes' });
  const blocks: { id: string; rows: Row[] }[] = [];
  for (let b = 0; b < 5; b++) {
    const block = await post(`/projects/${project}/blocks`, { description: `Block ${b + 1}` });
    const rows: Row[] = [];
    for (let r = 0; r < 3; r++) {
      const rowUrl = `/projects/${project}/blocks/${block}/rows`;
      const row = await post(rowUrl, { description: '' });
      const columns: string[] = [];
      for (let c = 0; c < 3; c++) {
        const contents = [0, 1].map(() => ({ type: 'text', data: { html: html() } }));
        columns.push(await post(`${rowUrl}/${row}/columns`, { size: 4, contents }));
      }
      rows.push({ id: row, columns });
    }
    blocks.push({ id: block, rows });
  }
  const [wb] = blocks;
  const [wr] = wb.rows;
  return {
    project,
    block: wb.id,
    row: wr.id,
    createColumn: wr.columns[0],
    resizeColumn: wr.columns[1],
    sizes: [3, 4],
    createTargets: blocks.flatMap((b) =>
      b.rows
        .filter((r) => r !== wr)
        .flatMap((r) => r.columns.map((column) => ({ block: b.id, row: r.id, column }))),
    ),
  };
}
