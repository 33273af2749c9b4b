// Nested selects for whole subtrees, each level in stored order. With the relationJoins preview
// feature Prisma loads a whole project in one SQL query (LATERAL joins with JSONB_AGG).
const byPosition = { position: 'asc' } as const;

export const contentSelect = { id: true, type: true, style: true, data: true } as const;

export const columnSelect = {
  id: true,
  size: true,
  contents: { select: contentSelect, orderBy: byPosition },
} as const;

export const rowSelect = {
  id: true,
  description: true,
  columns: { select: columnSelect, orderBy: byPosition },
} as const;

export const blockSelect = {
  id: true,
  description: true,
  style: true,
  createdAt: true,
  updatedAt: true,
  rows: { select: rowSelect, orderBy: byPosition },
} as const;

export const projectSummarySelect = {
  id: true,
  title: true,
  createdAt: true,
  updatedAt: true,
} as const;

export const projectSelect = {
  ...projectSummarySelect,
  blocks: { select: blockSelect, orderBy: byPosition },
} as const;

export { byPosition };
