import { type ServerProcess } from './processes';
import { type Targets } from './targets';
import { type LoadSettings, measureTreeReads } from './tree-reads';
import { type LoadLine } from './yardstick';

/** What a browser sends: the service answers brotli (preferred) or gzip. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

/**
 * `compressed`: the whole-project read of `tree` as a browser sends it, with
 * `Accept-Encoding: gzip, deflate, br`, so that the service compresses its answers. Compared
 * with the yardstick's tree, which compresses nothing: the cost of compression is the
 * difference. Only 200 counts as success.
 */
export function measureCompressed(
  server: ServerProcess,
  targets: Targets,
  settings: LoadSettings,
  dbpid: number | undefined,
): Promise<LoadLine> {
  return measureTreeReads(server, targets, settings, dbpid, {
    scenario: 'compressed',
    success: 200,
    headers: () => ({ 'accept-encoding': ACCEPT_ENCODING }),
  });
}
