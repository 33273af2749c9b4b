import { setFlagsFromString } from 'node:v8';

/**
 * Between two full collections V8 lets the old generation grow to several times what survived
 * the last one, and under load the service's resident memory climbed far past its live data.
 * A bounded growth holds it within its budget; too tight a bound means a full collection, which
 * pauses every request in flight, every fraction of a second, and shows in the latency tail
 * (bench/results/changes.md has both measured). V8 reads this flag at every full collection,
 * so setting it at start, before the application is built, is enough; 0 leaves V8's default.
 */
export function applyHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
