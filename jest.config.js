/**
 * Unit tests live beside each module (*.test.ts); end-to-end tests in test/.
 * ts-jest only transpiles (tsconfig.jest.json): `npm run build`, which runs before the
 * tests, type-checks the whole tree with tsc.
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/engine', '<rootDir>/cli', '<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json' }] },
  testTimeout: 30000,
  reporters: ['default', '<rootDir>/scripts/jest-summary-reporter.js'],
};
