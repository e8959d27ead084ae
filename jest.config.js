/** Unit tests live beside each module (*.test.ts); end-to-end tests in test/. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/engine', '<rootDir>/cli', '<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: { warnOnly: false } }] },
  testTimeout: 30000,
  reporters: ['default', '<rootDir>/scripts/jest-summary-reporter.js'],
};
