// Jest runs every test of the repository: one project per phase, so `npm test -- unit` (scripts/test.mjs),
// `npx jest --selectProjects unit` and IDE runners all see the same split. Tests are TypeScript ES modules
// as the code is written: @swc/jest strips the types (no type check here: `npm test` runs tsc first) and
// Jest loads them as native ES modules, which needs `--experimental-vm-modules` (scripts/test.mjs and the
// `jest` script set it).
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const swc = [
  '@swc/jest',
  {
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'es6' },
    sourceMaps: 'inline',
  },
];

const common = {
  rootDir: dirname(fileURLToPath(import.meta.url)),
  testEnvironment: '<rootDir>/scripts/jest/node-environment.cjs',
  // Tests import describe/it/expect from @jest/globals, as they did from node:test: no implicit globals.
  injectGlobals: false,
  extensionsToTreatAsEsm: ['.ts'],
  moduleFileExtensions: ['ts', 'mjs', 'js', 'cjs', 'json'],
  transform: { '^.+\\.ts$': swc },
  roots: [
    '<rootDir>/libs',
    '<rootDir>/services',
    '<rootDir>/embedded',
    '<rootDir>/cli',
    '<rootDir>/e2e',
    '<rootDir>/bench',
    '<rootDir>/scripts',
    '<rootDir>/charts',
    '<rootDir>/examples',
  ],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/gen/', '/\\.sesame/'],
};

// Tests that stop and restart a shared server run alone, after the others, and only on servers npm test
// started itself (scripts/test.mjs decides).
const outage = '[^/]*outage[^/]*\\.int\\.test\\.ts$';

export default {
  // A hung test or hook fails after 5 minutes instead of stalling the run (a file may set its own).
  testTimeout: 300_000,
  // Files run in path order, so e2e/01-six-processes goes first and proves the platform starts at all.
  testSequencer: '<rootDir>/scripts/jest/by-path-sequencer.cjs',
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['**/*.test.ts'],
      testPathIgnorePatterns: [
        ...common.testPathIgnorePatterns,
        '\\.int\\.test\\.ts$',
        '\\.e2e\\.test\\.ts$',
        '\\.ha\\.test\\.ts$',
      ],
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['**/*.int.test.ts'],
      testPathIgnorePatterns: [...common.testPathIgnorePatterns, outage],
    },
    {
      ...common,
      displayName: 'integration-outage',
      testRegex: [outage],
    },
    {
      // The HA Redis topology (Sentinel, Cluster) and its failover: only `npm run test:ha` starts it and runs these.
      ...common,
      displayName: 'ha',
      testMatch: ['**/*.ha.test.ts'],
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/e2e/**/*.e2e.test.ts'],
    },
  ],
  coverageProvider: 'v8',
  coverageDirectory: '<rootDir>/coverage',
  coverageReporters: ['json', 'text-summary'],
  // Production code only: generated code, tests and test support are left out of the figures.
  collectCoverageFrom: [
    '{libs,services}/*/src/**/*.ts',
    '{embedded,cli}/src/**/*.ts',
    '!**/gen/**',
    '!**/*.test.ts',
    '!libs/testing/**',
  ],
};
