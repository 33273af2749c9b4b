import { rowPath, type Targets } from './targets';

/** One request as load.mjs would send it, with the status that means success. */
export interface OneRequest {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  body?: string;
  headers: Record<string, string>;
  expected: number;
}

// load.mjs's create body (its HTML is ~320 characters).
const HTML = `<p>${'Layout load test paragraph with some ordinary words. '.repeat(6)}</p>`;
const CREATE = JSON.stringify({ type: 'text', style: { opacity: 0.9 }, data: { html: HTML } });

export type Profiled = 'tree' | 'columns' | 'content' | 'create' | 'resize' | 'conditional';

/**
 * The n-th request of a scenario, as load.mjs's `make` builds it (and the conditional scenario,
 * with the read projects' ETags): for the one-at-a-time SQL profile, not the load itself.
 */
export function nthRequest(
  scenario: Profiled,
  targets: Targets,
  n: number,
  tags: string[] = [],
): OneRequest {
  const headers = { authorization: `Bearer ${targets.token}` };
  const json = { ...headers, 'content-type': 'application/json' };
  const { read: r, write: w, projects } = targets;
  switch (scenario) {
    case 'tree':
      return {
        method: 'GET',
        path: `/projects/${projects[n % projects.length]}`,
        headers,
        expected: 200,
      };
    case 'columns':
      return { method: 'GET', path: `${rowPath(r)}/columns`, headers, expected: 200 };
    case 'content':
      return {
        method: 'GET',
        path: `${rowPath(r)}/columns/${r.column}/contents/${r.content}`,
        headers,
        expected: 200,
      };
    case 'create': {
      const c = w.createTargets[n % w.createTargets.length];
      return {
        method: 'POST',
        path: `${rowPath({ project: w.project, ...c })}/columns/${c.column}/contents`,
        body: CREATE,
        headers: json,
        expected: 201,
      };
    }
    case 'resize':
      return {
        method: 'PUT',
        path: `${rowPath(w)}/columns/${w.resizeColumn}`,
        body: `{"size":${w.sizes[n & 1]}}`,
        headers: json,
        expected: 200,
      };
    case 'conditional': {
      const i = n % projects.length;
      return {
        method: 'GET',
        path: `/projects/${projects[i]}`,
        headers: { ...headers, 'if-none-match': tags[i] },
        expected: 304,
      };
    }
  }
}
