#!/usr/bin/env node
// Longer or different property runs of the robustness suites:
//   npm run fuzz -- --seed 42 --runs 5000 [more jest arguments]
// sets HOOKPOLICY_FC_SEED and HOOKPOLICY_FC_RUNS (see test/support/fuzz-config.ts) and runs
// jest on test/robustness (input-size: events of every size, from a byte to 4 MB, answered
// within deadline_ms + 1 s) and the unit suites with seeded properties (redaction, the
// walker's globs, log timestamps, the shell pre-check, the rule index; paths given
// replace those, e.g. test/robustness/bad-input for the seeded suite only). Without --seed a random seed is
// drawn and printed, so a failure can be replayed with it.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

const usage = 'usage: npm run fuzz -- [--seed N] [--runs M] [jest arguments...]';
const env = { ...process.env };
const rest = [];
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const [flag, inline] = argv[i].includes('=') ? argv[i].split(/=(.*)/s, 2) : [argv[i], undefined];
  if (flag === '--seed' || flag === '--runs') {
    const value = inline ?? argv[++i];
    if (value === undefined || !/^-?\d+$/.test(value)) {
      console.error(`${flag} needs an integer\n${usage}`);
      process.exit(2);
    }
    env[flag === '--seed' ? 'HOOKPOLICY_FC_SEED' : 'HOOKPOLICY_FC_RUNS'] = value;
  } else if (flag === '--help' || flag === '-h') {
    console.log(usage);
    process.exit(0);
  } else {
    rest.push(argv[i]);
  }
}
if (env.HOOKPOLICY_FC_SEED === undefined) env.HOOKPOLICY_FC_SEED = String(Math.floor(Math.random() * 2 ** 31));
console.log(`fuzz: HOOKPOLICY_FC_SEED=${env.HOOKPOLICY_FC_SEED} HOOKPOLICY_FC_RUNS=${env.HOOKPOLICY_FC_RUNS ?? '(default)'}`);

const jest = require.resolve('jest/bin/jest');
// Paths given on the command line replace the default ones (jest ORs its path patterns).
const named = rest.some((a) => !a.startsWith('-'));
const suites = named ? [] : ['test/robustness', 'engine/host/redact', 'engine/host/walk-glob', 'engine/host/iso-time', 'engine/evaluate/shell/simple-script', 'engine/rule-index'];
const result = spawnSync(process.execPath, [jest, '--testTimeout=600000', ...suites, ...rest], { cwd: root, env, stdio: 'inherit' });
process.exit(result.status ?? 1);
