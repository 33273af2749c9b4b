/**
 * A project and the caller acting on it: what every statement of the members checks the
 * caller's membership with (the same shape as the layout's ProjectScope).
 */
export interface ProjectScope {
  readonly accountId: string;
  readonly projectId: string;
}
