/** Unit specs beside the code; end-to-end specs in test/ against a real PostgreSQL (embedded unless DATABASE_URL is set). */
// SWC strips the types file by file (as `isolatedModules` allows) and emits the decorator metadata
// Nest's injection reads; `npm run lint` type-checks. Measured: a cold e2e file 6.0 s against
// ts-jest's 10.2 s.
const transform = {
  '^.+\\.ts$': [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
        target: 'es2022',
        keepClassNames: true,
      },
      module: { type: 'commonjs' },
      sourceMaps: 'inline',
    },
  ],
};
// Node's environment, saying which file leaves a timer, socket or process running (test/handles-environment.js).
const base = {
  testEnvironment: '<rootDir>/test/handles-environment.js',
  transform,
  moduleFileExtensions: ['ts', 'js', 'json'],
};

module.exports = {
  maxWorkers: process.env.JEST_WORKERS ?? 2,
  // A worker whose heap passed 1 GB after a file is replaced by a fresh one. Without it, a worker's
  // heap grew over its hundred files and, at the end, it took longer than Jest's 500 ms to leave
  // ("A worker process has failed to exit gracefully", with no handle nor timer left: measured with
  // KHOUMS_TEST_HANDLES=timers), and the whole suite ran 568-634 s against 520 s with the limit.
  workerIdleMemoryLimit: '1GB',
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
