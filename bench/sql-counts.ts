import { onCleanup } from './cleanup';
import { learnTags } from './conditional';
import { type ScenarioName } from './config';
import { type BenchDatabases } from './database';
import { PgWireProxy } from './pg-proxy';
import { nthRequest, type Profiled } from './requests';
import { startService, startYardstick } from './servers';
import { profileSql, type SqlProfile } from './sql-profile';
import { type Targets } from './targets';
import { createWriteProject } from './write-project';
import { type YardstickCopy } from './yardstick';

const PROFILED: Profiled[] = ['tree', 'columns', 'content', 'create', 'resize', 'conditional'];
const REQUESTS = 30;

export interface SqlCounts {
  scenario: Profiled;
  service: SqlProfile | string;
  /** Absent for conditional (the yardstick has no ETags). */
  yardstick?: SqlProfile;
}

/**
 * A second service and a second yardstick whose database connections go through the counting
 * proxy (the measured ones connect directly, so the proxy never slows a measurement), each sent
 * the scenarios' requests one at a time: SQL round trips, statements and database wait per
 * request, and the statements themselves for the growth runs' EXPLAIN check.
 */
export async function countSql(options: {
  databases: BenchDatabases;
  serviceEntry: string;
  tempDir: string;
  copy: YardstickCopy;
  serviceTargets: Targets;
  yardstickTargets: Targets;
  scenarios: ScenarioName[];
}): Promise<SqlCounts[]> {
  const { databases, serviceTargets, yardstickTargets } = options;
  // Nothing to count (only fairness ran): no second instances either.
  if (!PROFILED.some((name) => options.scenarios.includes(name))) return [];
  const direct = new URL(databases.adminUrl);
  const proxy = await PgWireProxy.start({
    host: direct.hostname,
    port: Number(direct.port || 5432),
  });
  onCleanup('stop the SQL proxy', () => proxy.close());
  const viaProxy = (url: string) => {
    const proxied = new URL(url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    return proxied.toString();
  };
  const service = await startService(
    options.serviceEntry,
    viaProxy(databases.serviceUrl),
    options.tempDir,
    'service (counted)',
  );
  const yardstick = await startYardstick(
    options.copy.dir,
    viaProxy(databases.yardstickUrl),
    'yardstick (counted)',
  );
  // Its own write project, so that the measured ones stay as they were.
  const counted = {
    ...serviceTargets,
    write: await createWriteProject(service.url, serviceTargets.token),
  };
  const tags = await learnTags(service.url, serviceTargets);
  const results: SqlCounts[] = [];
  for (const scenario of PROFILED.filter((name) => options.scenarios.includes(name))) {
    if (scenario === 'conditional') {
      results.push({
        scenario,
        service:
          typeof tags === 'string'
            ? tags
            : await profileSql(
                service.url,
                proxy,
                (n) => nthRequest(scenario, counted, n, tags),
                REQUESTS,
              ),
      });
      continue;
    }
    results.push({
      scenario,
      service: await profileSql(
        service.url,
        proxy,
        (n) => nthRequest(scenario, counted, n),
        REQUESTS,
      ),
      yardstick: await profileSql(
        yardstick.url,
        proxy,
        (n) => nthRequest(scenario, yardstickTargets, n),
        REQUESTS,
      ),
    });
  }
  await service.stop();
  await yardstick.stop();
  await proxy.close();
  return results;
}
