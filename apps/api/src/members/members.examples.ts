import { type MemberResponse } from '@layout/contracts';
import {
  EXAMPLE_COLLEAGUE,
  EXAMPLE_CREATED_AT,
  EXAMPLE_OWNER,
  EXAMPLE_UPDATED_AT,
} from '../openapi/example-ids';

/** The example project's members: its owner, and the colleague it added as an editor. */
export const MEMBER_EXAMPLES: MemberResponse[] = [
  { account: EXAMPLE_OWNER, role: 'owner', addedAt: EXAMPLE_CREATED_AT },
  { account: EXAMPLE_COLLEAGUE, role: 'editor', addedAt: EXAMPLE_UPDATED_AT },
];
