/**
 * `policy lint` on a project as a team has it: no settings file at all, the runner
 * registered twice (project and local), and a clone where `npm install` has not run.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { linkHookpolicy } from '../support/install';
import { POLICY_BIN } from '../support/run-hook';

const POLICY = 'version: 1\nrules:\n  - id: notes\n    on: Stop\n    block: "Write NOTES.md first."\n';

function project(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hp-lint-reg-')));
  fs.mkdirSync(path.join(dir, '.claude'));
  fs.writeFileSync(path.join(dir, '.claude', 'policies.yaml'), POLICY);
  return dir;
}

function policy(dir: string, ...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: dir, NO_COLOR: '1' };
  delete env.CLAUDE_PROJECT_DIR;
  const r = spawnSync(process.execPath, [POLICY_BIN, ...args], { cwd: dir, env, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('policy lint: how the project registers the runner', () => {
  it('says when no settings file sends events to the runner', () => {
    const dir = project();
    const r = policy(dir, 'lint', '--format', 'json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).map((d: { code: string; line: number }) => `${d.line} ${d.code}`)).toEqual(['2 settings-missing']);
    expect(policy(dir, 'lint', '--no-settings', '--format', 'json').stdout.trim()).toBe('[]');
  });

  it('reports the runner registered in project and local scope at once, and an entry whose runner is not installed', () => {
    const dir = project();
    linkHookpolicy(dir);
    expect(policy(dir, 'init', '--mode', 'command').code).toBe(0);
    expect(policy(dir, 'init', '--mode', 'command', '--scope', 'local').code).toBe(0);
    const twice = JSON.parse(policy(dir, 'lint', '--format', 'json').stdout) as Array<{ code: string; message: string }>;
    expect(twice.map((d) => d.code)).toEqual(['settings-twice']);
    fs.rmSync(path.join(dir, '.claude', 'settings.local.json'));
    fs.rmSync(path.join(dir, 'node_modules'), { recursive: true });
    const gone = JSON.parse(policy(dir, 'lint', '--format', 'json').stdout) as Array<{ code: string; message: string }>;
    expect(gone.map((d) => [d.code, d.message])).toEqual([
      ['settings-runner-missing', 'The runner entry in .claude/settings.json starts ${CLAUDE_PROJECT_DIR}/node_modules/hookpolicy/bin/policy.cjs, which does not exist: the events it routes are not checked'],
    ]);
  });
});

describe('the policy-not-found example of docs/diagnostics.md', () => {
  it('is what lint prints for a file that does not exist (the project folder shown as /work/app)', () => {
    const dir = project();
    const doc = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'diagnostics.md'), 'utf8');
    const section = doc.split(/^## /m).find((s) => s.startsWith('policy-not-found\n')) ?? '';
    const example = /```console\n\$ policy (.*)\n([\s\S]*?)```/.exec(section);
    expect(example).not.toBeNull();
    const r = policy(dir, ...example![1].split(' '));
    expect(r.code).toBe(1);
    expect(r.stdout.split(dir).join('/work/app')).toBe(example![2]);
  });
});
