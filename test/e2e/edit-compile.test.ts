/**
 * The first event after a policy edited by hand, as Claude Code runs it: the runner
 * compiles again, taking from the build before what did not change. Read from the modules
 * the runner loads: no node:crypto (the packs keep their hashes by fingerprint, the edited
 * file is small enough for the engine's own SHA-256), no picomatch (every glob is in the
 * compile memo), and the edit in force.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ensureBuilt } from '../support/hook-process';
import { makeProject, type TempProject } from '../support/run-hook';

/** Notes each of these modules a process loads, in $LOADS_FILE. */
const PRELOAD = `const Module = require('module');
const fs = require('fs');
const watched = new Set(['crypto', 'node:crypto', 'picomatch']);
const load = Module._load;
Module._load = function (request, ...rest) {
  if (watched.has(request)) fs.appendFileSync(process.env.LOADS_FILE, request + '\\n');
  return load.call(this, request, ...rest);
};
`;

let p: TempProject;
let tools: string;
beforeAll(() => ensureBuilt(), 120_000);
beforeEach(() => {
  p = makeProject('version: 1\ninclude: [security-guard]\n');
  tools = fs.mkdtempSync(path.join(os.tmpdir(), 'hookpolicy-loads-'));
  fs.writeFileSync(path.join(tools, 'preload.cjs'), PRELOAD);
});
afterEach(() => {
  p.remove();
  fs.rmSync(tools, { recursive: true, force: true });
});

const bash = (command: string) => ({ hook_event_name: 'PreToolUse', session_id: 's1', cwd: p.dir, tool_name: 'Bash', tool_input: { command }, tool_use_id: 't1' });
/** Runs the event with the preload, and returns the answer and the watched modules it loaded. */
function watched(event: unknown): { json: unknown; loads: string[] } {
  const file = path.join(tools, 'loads.txt');
  fs.writeFileSync(file, '');
  const r = p.run(event, { env: { NODE_OPTIONS: `--require ${path.join(tools, 'preload.cjs')}`, LOADS_FILE: file } });
  expect(r.exitCode).toBe(0);
  return { json: r.json, loads: fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) };
}

describe('the first event after a hand edit', () => {
  it('compiles without node:crypto or picomatch, and the edit is in force', () => {
    // The first build: everything is worked out (the policy's globs among them).
    expect(watched(bash('make all')).json).toBeNull();
    p.write('.claude/policies.yaml', 'version: 1\ninclude: [security-guard]\nrules:\n  - { id: no-make, on: PreToolUse, tools: Bash, command: ["^make\\\\b"], deny: "no make here" }\n');
    const after = watched(bash('make all'));
    expect(after.json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('no make here') } });
    expect(after.loads).toEqual([]);
  });

  it('still hashes with node:crypto a file too large for the engine\'s own SHA-256, and makes a new glob with picomatch', () => {
    watched(bash('ls'));
    const padding = `# ${'x'.repeat(5000)}\n`;
    p.write('.claude/policies.yaml', `version: 1\ninclude: [security-guard]\n${padding}rules:\n  - { id: no-env, on: PreToolUse, tools: Write, paths: { deny: ["**/*.secret-env"] }, deny: "no env files" }\n`);
    const after = watched({ ...bash(''), tool_name: 'Write', tool_input: { file_path: p.file('a/b.secret-env'), content: 'x' } });
    expect(after.json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    expect(after.loads).toEqual(expect.arrayContaining(['crypto', 'picomatch']));
  });
});
