import { eventually } from '../../support/eventually';
import { type Outcome } from './http';
import { type ServiceProcess } from './service-process';

/** Milliseconds each request took in the service, by request id, from its JSON access log. */
function servedTimes(output: string): Map<string, number> {
  const times = new Map<string, number>();
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const entry = JSON.parse(line) as { requestId?: unknown; durationMs?: unknown };
      if (typeof entry.requestId === 'string' && typeof entry.durationMs === 'number') {
        times.set(entry.requestId, entry.durationMs);
      }
    } catch {
      // Not one of its JSON log lines.
    }
  }
  return times;
}

const requestIdOf = (outcome: Outcome) =>
  outcome.kind === 'answered' ? String(outcome.headers['x-request-id']) : undefined;

/**
 * How long the service took over each answered request, as its access log says: the deadlines
 * are the service's own, so they are checked by its clock, not by the client's, which also
 * counts how the machine schedules the two processes. A line is written once its answer is
 * sent: this waits for the lines of every answer in `outcomes`.
 */
export async function timesInService(
  service: ServiceProcess,
  outcomes: readonly Outcome[],
): Promise<(outcome: Outcome) => number | undefined> {
  const ids = outcomes.flatMap((outcome) => requestIdOf(outcome) ?? []);
  const served = await eventually(() => {
    const times = servedTimes(service.output());
    return ids.every((id) => times.has(id)) && times;
  }, `the access log lines of ${ids.length} answers`);
  return (outcome) => {
    const id = requestIdOf(outcome);
    return id === undefined ? undefined : served.get(id);
  };
}
