// NestJS 12 ships as ES modules only, and on Node 20 Jest loads those only in its native ESM
// mode: tests run with --experimental-vm-modules (see the npm scripts) and ts-jest emits ESM.
// Two projects share one run: `unit` (fast, mocked collaborators) and `e2e` (the real HTTP
// server against a real PostgreSQL, started once per run by test/setup/global-setup.ts).
const shared = {
  moduleFileExtensions: ['js', 'json', 'ts'],
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json', useESM: true }],
  },
  moduleNameMapper: {
    '^@layout/contracts$': '<rootDir>/libs/contracts/src/index.ts',
    // Generated and ESM-style sources import siblings as './x.js'; Jest resolves the .ts file.
    '^(\\.{1,2}/.*)\\.js$': '$1',
    // @fastify/static (CommonJS) requires content-disposition 3, which is ESM-only: Jest on Node
    // 20 cannot load that from CommonJS, so tests get the same function from the CommonJS 1.x.
    '^content-disposition$': 'content-disposition-cjs',
  },
  testEnvironment: 'node',
};

module.exports = {
  // e2e tests talk to a real server and database on a loaded 2-core machine.
  testTimeout: 30000,
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
