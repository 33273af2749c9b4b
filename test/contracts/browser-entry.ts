// What a single-page app writes to check a body before sending it: bundled for the browser by
// browser-bundle.e2e-spec.ts and exposed there as `globalThis.layoutContracts`.
import {
  BatchDto,
  CreateColumnDto,
  CreateProjectDto,
  validateBody,
  type FieldError,
} from '@layout/contracts';

export interface ColumnBodyCheck {
  ok: boolean;
  size?: number;
  errors: FieldError[];
}

export async function checkColumnBody(body: unknown): Promise<ColumnBodyCheck> {
  const result = await validateBody(CreateColumnDto, body);
  return result.ok ? { ok: true, size: result.value.size, errors: [] } : result;
}

/** The field errors of a body of `POST /projects` (a whole tree) or of a batch. */
export async function checkBody(kind: 'project' | 'batch', body: unknown): Promise<FieldError[]> {
  const result =
    kind === 'project'
      ? await validateBody(CreateProjectDto, body)
      : await validateBody(BatchDto, body);
  return result.errors;
}
