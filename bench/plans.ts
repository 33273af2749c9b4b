import { type Client } from 'pg';
import { type CapturedStatement } from './pg-proxy';

const BIG_TABLES = new Set([
  'accounts',
  'access_tokens',
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
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

/**
 * The noise-free half of the growth check: EXPLAIN each read statement a server sent (captured
 * with its parameters) on the grown database and list the tables it would scan sequentially.
 */
export async function checkPlans(
  db: Client,
  statements: CapturedStatement[],
): Promise<PlanCheck[]> {
  const checks: PlanCheck[] = [];
  for (const { sql, params } of statements) {
    if (!/^\s*(SELECT|WITH)\b/i.test(sql)) continue; // BEGIN, COMMIT and the like
    const { rows } = await db.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      `EXPLAIN (FORMAT JSON) ${sql}`,
      params,
    );
    const seqScans: string[] = [];
    const walk = (node: PlanNode) => {
      const relation = node['Relation Name'];
      if (node['Node Type'] === 'Seq Scan' && relation && BIG_TABLES.has(relation)) {
        seqScans.push(relation);
      }
      node.Plans?.forEach(walk);
    };
    walk(rows[0]['QUERY PLAN'][0].Plan);
    checks.push({ sql, seqScans });
  }
  return checks;
}
