import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { join } from 'node:path';

export interface Environment {
  cpu: string;
  cores: number;
  memoryGiB: number;
  kernel: string;
  loadAverageAtStart: number[];
  node: string;
  commit: string;
  packages: Record<string, string>;
}

/** The packages whose versions explain the service's numbers (the yardstick's: its own copy). */
const PACKAGES = [
  '@nestjs/core',
  '@nestjs/platform-fastify',
  '@nestjs/passport',
  'passport-http-bearer',
  'class-validator',
  'class-transformer',
  '@prisma/client',
  '@prisma/adapter-pg',
  'sanitize-html',
  'pg',
  'autocannon',
];

export function describeEnvironment(root: string): Environment {
  const packages: Record<string, string> = {};
  for (const name of PACKAGES) {
    try {
      const manifest = readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8');
      packages[name] = (JSON.parse(manifest) as { version: string }).version;
    } catch {
      packages[name] = 'not installed';
    }
  }
  let commit = 'unknown';
  try {
    // Read-only; the working tree may hold other engineers' uncommitted changes.
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: root,
      encoding: 'utf8',
    }).trim();
  } catch {
    // Not a git checkout.
  }
  const cores = cpus();
  return {
    cpu: cores[0]?.model.trim() ?? 'unknown',
    cores: cores.length,
    memoryGiB: totalmem() / 1024 ** 3,
    kernel: release(),
    loadAverageAtStart: loadavg(),
    node: process.version,
    commit,
    packages,
  };
}
