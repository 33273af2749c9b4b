// Two projects share one run: `unit` (fast, mocked collaborators) and `e2e` (the real HTTP
// server against a real PostgreSQL, started once per run by test/setup/global-setup.ts).
const shared = {
  moduleFileExtensions: ['js', 'json', 'ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json', isolatedModules: true }],
  },
  moduleNameMapper: {
    '^@layout/contracts$': '<rootDir>/libs/contracts/src',
    '^@layout/contracts/(.*)$': '<rootDir>/libs/contracts/src/$1',
  },
  testEnvironment: 'node',
};

module.exports = {
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
      testTimeout: 30000,
    },
  ],
};
