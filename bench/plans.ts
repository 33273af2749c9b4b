import { type Client } from 'pg';
import { PLAN_CACHE_MODE } from '../apps/api/src/database/database-pool';
import { type CapturedStatement } from './pg-proxy';

const BIG_TABLES = new Set([
  'accounts',
  'access_tokens',
  'tokens', // the yardstick's
  'projects',
  'blocks',
  'rows',
  'columns',
  'contents',
]);

export interface PlanCheck {
  sql: string;
  /** Tables read whole: what would make latency grow with the table. */
  seqScans: string[];
  /** Why it could not be EXPLAINed, if it could not. */
  error?: string;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

/**
 * The noise-free half of the growth check: EXPLAIN each read statement a server sent (captured
 * with its parameters by the SQL proxy) on the grown database (the server's own: `db`), planned
 * as that server's connections plan it, and list the tables it would scan sequentially.
 * `generic`: the server's connections run `plan_cache_mode=${PLAN_CACHE_MODE}` (the service), so
 * the plan shown is the prepared statement's generic one; otherwise PostgreSQL's first choice,
 * planned for the values.
 */
export async function checkPlans(
  db: Client,
  statements: CapturedStatement[],
  plans: 'generic' | 'for-the-values',
): Promise<PlanCheck[]> {
  const checks: PlanCheck[] = [];
  for (const { sql, params } of statements) {
    if (!/^\s*(SELECT|WITH)\b/i.test(sql)) continue; // BEGIN, COMMIT and the like
    let plan: PlanNode;
    try {
      plan =
        plans === 'generic' ? await genericPlan(db, sql, params) : await planFor(db, sql, params);
    } catch (error) {
      checks.push({
        sql,
        seqScans: [],
        error: error instanceof Error ? error.message : String(error),
      });
      continue;
    }
    const seqScans: string[] = [];
    const walk = (node: PlanNode) => {
      const relation = node['Relation Name'];
      if (node['Node Type'] === 'Seq Scan' && relation && BIG_TABLES.has(relation)) {
        seqScans.push(relation);
      }
      node.Plans?.forEach(walk);
    };
    walk(plan);
    checks.push({ sql, seqScans });
  }
  return checks;
}

type Explained = { 'QUERY PLAN': [{ Plan: PlanNode }] };

/** EXPLAIN with bound values: planned for them, as a custom plan is. */
async function planFor(db: Client, sql: string, params: (string | null)[]): Promise<PlanNode> {
  const { rows } = await db.query<Explained>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
  return rows[0]['QUERY PLAN'][0].Plan;
}

/**
 * The plan a prepared statement runs on under `plan_cache_mode=${PLAN_CACHE_MODE}`. EXPLAIN of a
 * statement with bound values plans for those values whatever the setting; EXPLAIN EXECUTE of a
 * prepared one shows its cached plan, and takes its values as literals (typed by the statement's
 * parameters, as the service's values are).
 */
async function genericPlan(db: Client, sql: string, params: (string | null)[]): Promise<PlanNode> {
  await db.query(`SET plan_cache_mode = ${PLAN_CACHE_MODE}`);
  await db.query(`PREPARE bench_plan AS ${sql}`);
  try {
    const values = params.map((value) => (value === null ? 'NULL' : db.escapeLiteral(value)));
    const { rows } = await db.query<Explained>(
      `EXPLAIN (FORMAT JSON) EXECUTE bench_plan(${values.join(', ')})`,
    );
    return rows[0]['QUERY PLAN'][0].Plan;
  } finally {
    await db.query('DEALLOCATE bench_plan');
    await db.query('RESET plan_cache_mode');
  }
}
