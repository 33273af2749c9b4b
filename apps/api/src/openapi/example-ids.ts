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

/** The examples' accounts: the owner of the example project, and a colleague it added. */
export const EXAMPLE_OWNER = { _id: EXAMPLE_IDS.account, username: 'ada@example.com' };
export const EXAMPLE_COLLEAGUE = { _id: EXAMPLE_IDS.accountId, username: 'grace@example.com' };

/** When the examples' resources were created and last changed. */
export const EXAMPLE_CREATED_AT = '2026-11-22T10:15:30.000Z';
export const EXAMPLE_UPDATED_AT = '2026-11-22T10:20:00.000Z';

/** A path template with the example ids filled in: `/projects/{projectId}` → `/projects/0190…`. */
export function examplePath(template: string): string {
  return template.replace(/\{(\w+)\}/g, (placeholder, name: string) =>
    name in EXAMPLE_IDS ? EXAMPLE_IDS[name as keyof typeof EXAMPLE_IDS] : placeholder,
  );
}
