/**
 * Everything the run starts (service, baseline, proxy, database, temp folders) registers how to
 * undo it here, right after it exists. They are undone in reverse order once: at the end of the
 * run, on an error, or on Ctrl-C / SIGTERM / SIGHUP. A last-resort `exit` hook kills child
 * processes that are still alive, so that a crash never leaves a service holding a port.
 */
type Undo = () => Promise<void> | void;

const undos: { label: string; undo: Undo }[] = [];
const lastResort = new Set<() => void>();
let running: Promise<void> | undefined;

export function onCleanup(label: string, undo: Undo): void {
  undos.push({ label, undo });
}

/** A synchronous kill for the `exit` hook; remove it once the process is known to be gone. */
export function onExitKill(kill: () => void): () => void {
  lastResort.add(kill);
  return () => lastResort.delete(kill);
}

export function cleanUp(): Promise<void> {
  running ??= (async () => {
    while (undos.length > 0) {
      const { label, undo } = undos.pop()!;
      try {
        await undo();
      } catch (error) {
        // Keep undoing the rest: one failure must not leave the others running.
        console.error(`cleanup: ${label} failed:`, error instanceof Error ? error.message : error);
      }
    }
  })();
  return running;
}

let signalled = false;

/** Whether a signal is ending the run (whatever fails meanwhile is a consequence of it). */
export function interrupted(): boolean {
  return signalled;
}

export function installSignalHandlers(): void {
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) return; // tsx and the terminal may both deliver the same Ctrl-C
    signalled = true;
    console.error(`\n${signal}: stopping everything the bench started…`);
    void cleanUp().finally(() => process.exit(130));
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, onSignal);
  process.on('exit', () => {
    for (const kill of lastResort) kill();
  });
}
