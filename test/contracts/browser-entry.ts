// What a single-page app writes to check a column body before sending it: bundled for the
// browser by browser-bundle.e2e-spec.ts and exposed there as `globalThis.layoutContracts`.
import { CreateColumnDto, validateBody, type FieldError } from '@layout/contracts';

export interface ColumnBodyCheck {
  ok: boolean;
  size?: number;
  errors: FieldError[];
}

export async function checkColumnBody(body: unknown): Promise<ColumnBodyCheck> {
  const result = await validateBody(CreateColumnDto, body);
  return result.ok ? { ok: true, size: result.value.size, errors: [] } : result;
}
