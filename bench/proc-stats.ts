import { readFileSync } from 'node:fs';

// The yardstick's load.mjs sampling, ported for the scenario it does not have (conditional), so
// that its numbers mean the same: the peak VmRSS of a process and its descendants, sampled every
// 100 ms, and CPU ticks (utime + stime, 100 per second) of the server, the database and the
// driver (this process) over the measured run.

function processTree(pid: number): number[] {
  let kids: number[] = [];
  try {
    kids = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    // Gone, or not Linux.
  }
  return [pid, ...kids.flatMap(processTree)];
}

function sumOver(pid: number, read: (pid: number) => number): number {
  return processTree(pid).reduce((sum, p) => {
    try {
      return sum + read(p);
    } catch {
      return sum;
    }
  }, 0);
}

export function rssKb(pid: number): number {
  return sumOver(pid, (p) => {
    const match = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  });
}

function ticks(pid: number): number {
  return sumOver(pid, (p) => {
    const fields = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  });
}

/**
 * CPU ticks of a database server: the postmaster, its live backends, and the backends that
 * have exited (the kernel adds a reaped child's time to its parent's cutime and cstime). A sum
 * over the live process tree alone, as load.mjs takes it, loses every backend that closes
 * during the run and can come out negative.
 */
export function databaseTicks(postmaster: number): number {
  const own = readFileSync(`/proc/${postmaster}/stat`, 'utf8').split(') ')[1].split(' ');
  const reaped = Number(own[13]) + Number(own[14]);
  return ticks(postmaster) + reaped;
}

export interface Usage {
  rssMB: number | null;
  cpuPct: number | null;
  dbCpuPct: number | null;
  driverCpuPct: number;
}

/** Starts sampling; the returned function stops it and gives the usage over `seconds`. */
export function sampleUsage(pid: number, dbpid: number | undefined): (seconds: number) => Usage {
  const cpu0 = ticks(pid);
  const db0 = dbpid === undefined ? 0 : databaseTicks(dbpid);
  const me0 = process.cpuUsage();
  let peak = rssKb(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssKb(pid))), 100);
  return (seconds) => {
    clearInterval(timer);
    const me = process.cpuUsage(me0);
    return {
      rssMB: Math.round(Math.max(peak, rssKb(pid)) / 1024),
      cpuPct: Math.round((ticks(pid) - cpu0) / seconds),
      dbCpuPct: dbpid === undefined ? null : Math.round((databaseTicks(dbpid) - db0) / seconds),
      driverCpuPct: Math.round((me.user + me.system) / 1e4 / seconds),
    };
  };
}

/** The parent of a process (for the postmaster of a backend), from /proc; undefined if unknown. */
export function parentPid(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[1]);
  } catch {
    return undefined;
  }
}

export function commandName(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return undefined;
  }
}
