// ESLint 9 in its legacy-config mode (ESLINT_USE_FLAT_CONFIG=false, set by the npm scripts):
// the product's owner fixed `.eslintrc.js` as the configuration file; see README "Linting".
module.exports = {
  root: true,
  parser: '@typescript-eslint/parser',
  parserOptions: {
    project: ['./tsconfig.json'],
    tsconfigRootDir: __dirname,
    sourceType: 'module',
  },
  plugins: ['@typescript-eslint'],
  extends: [
    'eslint:recommended',
    'plugin:@typescript-eslint/recommended-type-checked',
    'plugin:prettier/recommended',
  ],
  env: { node: true, jest: true },
  ignorePatterns: [
    'dist/',
    'node_modules/',
    'coverage/',
    'apps/api/src/generated/',
    // Compiled on its own, against a client generated in a temporary folder (check:typed-client).
    'scripts/openapi/typed-client/',
    '.eslintrc.js',
    'jest.config.js',
  ],
  rules: {
    '@typescript-eslint/no-floating-promises': 'error',
    '@typescript-eslint/switch-exhaustiveness-check': 'error',
    '@typescript-eslint/explicit-module-boundary-types': 'off',
    '@typescript-eslint/no-unused-vars': [
      'error',
      { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
    ],
  },
  overrides: [
    {
      // The shared DTO library must stay importable by a browser app.
      files: ['libs/contracts/**/*.ts'],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                group: ['@nestjs/*'],
                message: 'libs/contracts is framework-free: no @nestjs/* imports.',
              },
              {
                group: [
                  'node:*',
                  'fs',
                  'path',
                  'crypto',
                  'os',
                  'http',
                  'https',
                  'url',
                  'util',
                  'stream',
                  'buffer',
                  'child_process',
                ],
                message: 'libs/contracts runs in browsers: no Node built-ins.',
              },
            ],
          },
        ],
      },
    },
    {
      files: ['**/*.spec.ts', 'test/**/*.ts'],
      rules: {
        '@typescript-eslint/no-unsafe-assignment': 'off',
        '@typescript-eslint/no-unsafe-member-access': 'off',
        '@typescript-eslint/no-unsafe-argument': 'off',
        '@typescript-eslint/unbound-method': 'off',
        // Tests read JSON responses whose shape is what they assert.
        '@typescript-eslint/no-explicit-any': 'off',
        '@typescript-eslint/no-unsafe-call': 'off',
        '@typescript-eslint/no-unsafe-return': 'off',
      },
    },
  ],
};
