/**
 * How the runner ends: once its answer is written and nothing keeps Node's event loop
 * alive, bin/policy.cjs exits at once instead of waiting for Node's teardown; anything
 * still pending is waited for. Run as Claude Code runs it, with a preloaded module
 * (NODE_OPTIONS=--require) standing in for work left on the loop.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ensureBuilt } from '../support/hook-process';
import { makeProject, type TempProject } from '../support/run-hook';

const POLICY = `version: 1
rules:
  - id: no-env-writes
    on: PreToolUse
    tools: Write
    paths: { deny: [".env"] }
    deny: "{{path}} holds secrets."
  - id: finish-first
    on: TeammateIdle
    deny: "Finish the task first."
`;

let project: TempProject;

beforeAll(() => ensureBuilt(), 120_000);
beforeEach(() => {
  project = makeProject(POLICY);
});
afterEach(() => project.remove());

/** A module preloaded into the runner: `code` runs before bin/policy.cjs. */
function preload(code: string): Record<string, string> {
  const file = project.write('preload.cjs', code);
  return { NODE_OPTIONS: `--require ${JSON.stringify(file).slice(1, -1)}` };
}

const writeEnv = () => ({ hook_event_name: 'PreToolUse', cwd: project.dir, tool_name: 'Write', tool_input: { file_path: path.join(project.dir, '.env'), content: 'A=1' } });

describe('the runner ends when its work is done', () => {
  it('exits without running the loop once more: a beforeExit listener never fires, the deny is intact', () => {
    const env = preload("process.on('beforeExit', () => require('fs').writeSync(2, 'BEFORE-EXIT\\n'));");
    const run = project.run(writeEnv(), { env });
    expect(run.exitCode).toBe(0);
    expect(run.json).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: '.env holds secrets.' } });
    expect(run.stderr).not.toContain('BEFORE-EXIT');
  });

  it('keeps exit code 2 and its reason on stderr when it ends early', () => {
    const env = preload("process.on('beforeExit', () => require('fs').writeSync(2, 'BEFORE-EXIT\\n'));");
    const run = project.run({ hook_event_name: 'TeammateIdle', cwd: project.dir, teammate_name: 'dev', team_name: 't' }, { env });
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('Finish the task first.');
    expect(run.stderr).not.toContain('BEFORE-EXIT');
  });

  it('waits for work still pending on the loop (a timer) before it exits', () => {
    const marker = project.file('timer-ran');
    const env = preload(`setTimeout(() => require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran'), 300);`);
    const run = project.run(writeEnv(), { env });
    expect(run.exitCode).toBe(0);
    expect((run.json as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(fs.readFileSync(marker, 'utf8')).toBe('ran');
  });
});
