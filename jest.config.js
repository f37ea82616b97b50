/** Unit specs beside the code; end-to-end specs in test/ against a real PostgreSQL (embedded unless DATABASE_URL is set). */
const transform = { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] };
const base = { testEnvironment: 'node', transform, moduleFileExtensions: ['ts', 'js', 'json'] };

module.exports = {
  maxWorkers: process.env.JEST_WORKERS ?? 2,
  testTimeout: 60_000,
  reporters: ['default', '<rootDir>/test/summary-reporter.js'],
  projects: [
    { ...base, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    {
      ...base,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/global-setup.ts',
      globalTeardown: '<rootDir>/test/global-teardown.ts',
    },
  ],
};
