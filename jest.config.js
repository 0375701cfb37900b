// Jest runs the TypeScript sources directly; `npm test` type-checks them first with tsc.
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/__tests__'],
  testMatch: ['**/*.test.ts'],
  // Transpile only (tsconfig has isolatedModules): type errors are tsc's job in `npm test`.
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  // Fixtures import from 'tessera-api' exactly as a user would; inside this repository that is the runtime.
  moduleNameMapper: { '^tessera-api$': '<rootDir>/runtime/index.ts', '^jose$': '<rootDir>/__tests__/helpers/jose-native.cjs' },
  testTimeout: 30000,
  // lib/ up to date for the tests that run built bundles with plain node.
  globalSetup: '<rootDir>/__tests__/helpers/global-setup.js',
};
