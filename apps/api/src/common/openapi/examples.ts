import {
  type AccountResponse,
  type BlockResponse,
  type ChangePasswordDto,
  type ColumnResponse,
  type ContentResponse,
  DEFAULT_BLOCK_STYLE,
  DEFAULT_CONTENT_STYLE,
  type MemberResponse,
  type MeResponse,
  type PresenceResponse,
  type ProjectResponse,
  type ProjectSummaryResponse,
  type RevisionResponse,
  type RowResponse,
  type SignUpDto,
  type TokenRequestDto,
  type TokenResponse,
} from '@layout/contracts';

/** Example ids, one per resource, so that the examples of one tree fit together. */
export const EXAMPLE_IDS = {
  account: '0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a80',
  accountId: '0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a81',
  projectId: '0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a87',
  blockId: '0190a6f0-8a12-7c3d-8e4f-5a6b7c8d9e01',
  rowId: '0190a6f0-8a12-7c3d-8e4f-5a6b7c8d9e02',
  columnId: '0190a6f0-8a12-7c3d-8e4f-5a6b7c8d9e03',
  contentId: '0190a6f0-8a12-7c3d-8e4f-5a6b7c8d9e04',
  linkId: '0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a90',
  assetId: '5f0c6a1e-2b7d-4c3e-9a8f-1d2e3f4a5b6c',
  token: '3q2-7wPpQ1m0ZzKxVnB4cD8eF6gH5iJ9kL2mN0oP7rS',
} as const;

const CREATED_AT = '2026-11-22T10:15:30.000Z';
const UPDATED_AT = '2026-11-22T10:20:00.000Z';

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
  createdAt: CREATED_AT,
  updatedAt: UPDATED_AT,
};

export const PROJECT_EXAMPLE: ProjectResponse = {
  _id: EXAMPLE_IDS.projectId,
  title: 'Proposal for ACME',
  revision: 7,
  createdAt: CREATED_AT,
  updatedAt: UPDATED_AT,
  blocks: [BLOCK_EXAMPLE],
};

export const PROJECT_SUMMARY_EXAMPLE: ProjectSummaryResponse = {
  _id: PROJECT_EXAMPLE._id,
  title: PROJECT_EXAMPLE.title,
  revision: PROJECT_EXAMPLE.revision,
  createdAt: CREATED_AT,
  updatedAt: UPDATED_AT,
  role: 'owner',
};

/** What a create answers: the new resource, whose lists are still empty. */
export const NEW = {
  project: {
    ...PROJECT_EXAMPLE,
    revision: 1,
    blocks: [],
    updatedAt: CREATED_AT,
  } satisfies ProjectResponse,
  block: { ...BLOCK_EXAMPLE, rows: [], updatedAt: CREATED_AT } satisfies BlockResponse,
  row: { ...ROW_EXAMPLE, columns: [] } satisfies RowResponse,
  column: { ...COLUMN_EXAMPLE, contents: [] } satisfies ColumnResponse,
  content: CONTENT_EXAMPLE,
};

/**
 * The example user, in the body of sign-up and of the token request alike: in the explorer,
 * "Try it out" on the one and then on the other signs in the user just created.
 */
export const CREDENTIALS_EXAMPLE: SignUpDto & TokenRequestDto = {
  username: 'ada@example.com',
  password: 'correct horse battery staple',
};

export const CHANGE_PASSWORD_EXAMPLE: ChangePasswordDto = {
  currentPassword: CREDENTIALS_EXAMPLE.password,
  newPassword: 'a new horse battery staple',
};

export const ACCOUNT_EXAMPLE: AccountResponse = {
  _id: EXAMPLE_IDS.account,
  username: CREDENTIALS_EXAMPLE.username,
  createdAt: CREATED_AT,
};

export const ME_EXAMPLE: MeResponse = {
  _id: EXAMPLE_IDS.account,
  username: CREDENTIALS_EXAMPLE.username,
};

export const TOKEN_EXAMPLE: TokenResponse = {
  token: 'Vf3pQ0m1a2Zr8yTq5nK7cX9bW4sE6uHjLd2Rt8Yp0Qa',
  tokenType: 'Bearer',
  expiresIn: 3600,
};

/** A path template with the example ids filled in: `/projects/{projectId}` → `/projects/0190…`. */
export function examplePath(template: string): string {
  return template.replace(/\{(\w+)\}/g, (placeholder, name: string) =>
    name in EXAMPLE_IDS ? EXAMPLE_IDS[name as keyof typeof EXAMPLE_IDS] : placeholder,
  );
}

/** The owner, and a colleague it added. */
const OWNER = { _id: EXAMPLE_IDS.account, username: CREDENTIALS_EXAMPLE.username };
const COLLEAGUE = { _id: EXAMPLE_IDS.accountId, username: 'grace@example.com' };

export const REVISION_EXAMPLES: RevisionResponse[] = [
  {
    revision: 8,
    createdAt: '2026-11-22T10:21:04.512Z',
    operation: 'content.update',
    path: `/projects/${EXAMPLE_IDS.projectId}/blocks/${EXAMPLE_IDS.blockId}/rows/${EXAMPLE_IDS.rowId}/columns/${EXAMPLE_IDS.columnId}/contents/${EXAMPLE_IDS.contentId}`,
    author: COLLEAGUE,
  },
  {
    revision: 7,
    createdAt: UPDATED_AT,
    operation: 'row.create',
    path: `/projects/${EXAMPLE_IDS.projectId}/blocks/${EXAMPLE_IDS.blockId}/rows`,
    author: OWNER,
  },
];

export const MEMBER_EXAMPLES: MemberResponse[] = [
  { account: OWNER, role: 'owner', addedAt: CREATED_AT },
  { account: COLLEAGUE, role: 'editor', addedAt: UPDATED_AT },
];

export const PRESENCE_EXAMPLE: PresenceResponse = {
  present: [
    { account: OWNER, location: null, state: 'viewing', since: UPDATED_AT },
    {
      account: COLLEAGUE,
      location: `/projects/${EXAMPLE_IDS.projectId}/blocks/${EXAMPLE_IDS.blockId}`,
      state: 'editing',
      since: '2026-11-22T10:21:04.512Z',
    },
  ],
};
