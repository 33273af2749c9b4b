import { type Client } from 'pg';
import { type PLAN_CACHE_MODE } from '../apps/api/src/database/database-pool';
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
 * as that server's connections plan it (`planCacheMode`), and list the tables it would scan
 * sequentially.
 */
export async function checkPlans(
  db: Client,
  statements: CapturedStatement[],
  planCacheMode: 'auto' | typeof PLAN_CACHE_MODE,
): Promise<PlanCheck[]> {
  await db.query(`SELECT set_config('plan_cache_mode', $1, false)`, [planCacheMode]);
  const checks: PlanCheck[] = [];
  for (const { sql, params } of statements) {
    if (!/^\s*(SELECT|WITH)\b/i.test(sql)) continue; // BEGIN, COMMIT and the like
    let plan: PlanNode;
    try {
      const { rows } = await db.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `EXPLAIN (FORMAT JSON) ${sql}`,
        params,
      );
      plan = rows[0]['QUERY PLAN'][0].Plan;
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
