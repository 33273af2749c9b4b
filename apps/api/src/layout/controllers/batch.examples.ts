import { type BatchResponse } from '@layout/contracts';
import { EXAMPLE_IDS } from '../../openapi/example-ids';
import { COLUMN_EXAMPLE, NEW } from './layout.examples';

const ROW_PATH = `/projects/${EXAMPLE_IDS.projectId}/blocks/${EXAMPLE_IDS.blockId}/rows`;

/** A batch that resized a column, made a row and put a new column in it. */
export const BATCH_EXAMPLE: BatchResponse = {
  revision: 42,
  results: [
    {
      status: 200,
      etag: '"r42"',
      body: { ...COLUMN_EXAMPLE, size: '3' },
    },
    {
      status: 201,
      location: `${ROW_PATH}/${EXAMPLE_IDS.rowId}`,
      etag: '"r42"',
      body: { ...NEW.row },
    },
    {
      status: 201,
      location: `${ROW_PATH}/${EXAMPLE_IDS.rowId}/columns/${EXAMPLE_IDS.columnId}`,
      etag: '"r42"',
      body: { ...NEW.column, size: '12' },
    },
  ],
};
