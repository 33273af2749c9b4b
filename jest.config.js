// Tests run as CommonJS, like the built service. NestJS 12 and a few other dependencies ship as
// ES modules only; Jest loads those from CommonJS through Node's require(esm), which it supports
// on Node >= 24.9 when Node's VM module API is on (--experimental-vm-modules in the npm script).
// Two projects share one run: `unit` (fast, mocked collaborators) and `e2e` (the real HTTP
// server against a real PostgreSQL, started once per run by test/setup/global-setup.ts).
const shared = {
  moduleFileExtensions: ['js', 'json', 'ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }],
  },
  moduleNameMapper: {
    '^@layout/contracts$': '<rootDir>/libs/contracts/src/index.ts',
    // Generated and ESM-style sources import siblings as './x.js'; Jest resolves the .ts file.
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testEnvironment: 'node',
};

module.exports = {
  // e2e tests talk to a real server and database on a loaded 2-core machine.
  testTimeout: 30000,
  // Test files leave modules behind in the process that ran them (Jest's registry per file), so
  // that one process running all of them in band grew past a gigabyte of heap, whose full
  // collections stall it: a timing test then measured its own pause. Running them in a worker
  // that is replaced once it holds this much keeps every file's process small.
  workerIdleMemoryLimit: '512MB',
  projects: [
    {
      ...shared,
      displayName: 'unit',
      rootDir: __dirname,
      testMatch: ['<rootDir>/apps/**/*.spec.ts', '<rootDir>/libs/**/*.spec.ts'],
    },
    {
      ...shared,
      displayName: 'e2e',
      rootDir: __dirname,
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/setup/global-setup.ts',
      globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
    },
  ],
};
