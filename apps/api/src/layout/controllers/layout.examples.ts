import {
  type BlockResponse,
  type ColumnResponse,
  type ContentResponse,
  DEFAULT_BLOCK_STYLE,
  DEFAULT_CONTENT_STYLE,
  type PresenceResponse,
  type ProjectResponse,
  type ProjectSummaryResponse,
  type RevisionResponse,
  type RowResponse,
} from '@layout/contracts';
import {
  EXAMPLE_COLLEAGUE,
  EXAMPLE_CREATED_AT,
  EXAMPLE_IDS,
  EXAMPLE_OWNER,
  EXAMPLE_UPDATED_AT,
} from '../../openapi/example-ids';

/** The explorer's examples of the tree: one project, each level's node inside the one above. */
export const CONTENT_EXAMPLE: ContentResponse = {
  _id: EXAMPLE_IDS.contentId,
  type: 'text',
  style: { ...DEFAULT_CONTENT_STYLE },
  data: { html: '<p>Hello <strong>world</strong></p>' },
};

export const COLUMN_EXAMPLE: ColumnResponse = {
  _id: EXAMPLE_IDS.columnId,
  size: '6',
  contents: [CONTENT_EXAMPLE],
};

export const ROW_EXAMPLE: RowResponse = {
  _id: EXAMPLE_IDS.rowId,
  description: 'Two columns',
  columns: [COLUMN_EXAMPLE],
};

export const BLOCK_EXAMPLE: BlockResponse = {
  _id: EXAMPLE_IDS.blockId,
  description: 'Pricing',
  style: { ...DEFAULT_BLOCK_STYLE },
  rows: [ROW_EXAMPLE],
  createdAt: EXAMPLE_CREATED_AT,
  updatedAt: EXAMPLE_UPDATED_AT,
};

export const PROJECT_EXAMPLE: ProjectResponse = {
  _id: EXAMPLE_IDS.projectId,
  title: 'Proposal for ACME',
  revision: 7,
  createdAt: EXAMPLE_CREATED_AT,
  updatedAt: EXAMPLE_UPDATED_AT,
  blocks: [BLOCK_EXAMPLE],
};

export const PROJECT_SUMMARY_EXAMPLE: ProjectSummaryResponse = {
  _id: PROJECT_EXAMPLE._id,
  title: PROJECT_EXAMPLE.title,
  revision: PROJECT_EXAMPLE.revision,
  createdAt: EXAMPLE_CREATED_AT,
  updatedAt: EXAMPLE_UPDATED_AT,
  role: 'owner',
};

/** What a create answers: the new resource, whose lists are still empty. */
export const NEW = {
  project: {
    ...PROJECT_EXAMPLE,
    revision: 1,
    blocks: [],
    updatedAt: EXAMPLE_CREATED_AT,
  } satisfies ProjectResponse,
  block: { ...BLOCK_EXAMPLE, rows: [], updatedAt: EXAMPLE_CREATED_AT } satisfies BlockResponse,
  row: { ...ROW_EXAMPLE, columns: [] } satisfies RowResponse,
  column: { ...COLUMN_EXAMPLE, contents: [] } satisfies ColumnResponse,
  content: CONTENT_EXAMPLE,
};

export const REVISION_EXAMPLES: RevisionResponse[] = [
  {
    revision: 8,
    createdAt: '2026-11-22T10:21:04.512Z',
    operation: 'content.update',
    path: `/projects/${EXAMPLE_IDS.projectId}/blocks/${EXAMPLE_IDS.blockId}/rows/${EXAMPLE_IDS.rowId}/columns/${EXAMPLE_IDS.columnId}/contents/${EXAMPLE_IDS.contentId}`,
    author: EXAMPLE_COLLEAGUE,
  },
  {
    revision: 7,
    createdAt: EXAMPLE_UPDATED_AT,
    operation: 'row.create',
    path: `/projects/${EXAMPLE_IDS.projectId}/blocks/${EXAMPLE_IDS.blockId}/rows`,
    author: EXAMPLE_OWNER,
  },
];

export const PRESENCE_EXAMPLE: PresenceResponse = {
  present: [
    { account: EXAMPLE_OWNER, location: null, state: 'viewing', since: EXAMPLE_UPDATED_AT },
    {
      account: EXAMPLE_COLLEAGUE,
      location: `/projects/${EXAMPLE_IDS.projectId}/blocks/${EXAMPLE_IDS.blockId}`,
      state: 'editing',
      since: '2026-11-22T10:21:04.512Z',
    },
  ],
};
