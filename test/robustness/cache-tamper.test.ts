/**
 * A poisoned cache (issue 12, self-modification): the confined agent edits the compiled
 * policy in the cache folder, or another user plants a cache in a folder it can write.
 * The runner must notice, say so on stderr, rebuild from the policy file, and decide as
 * the policy says.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { makeProject, runHook, type TempProject } from '../support/run-hook';

const POLICY = 'version: 1\nrules:\n  - id: no-env\n    on: PreToolUse\n    tools: Write\n    paths: { deny: [".env"] }\n    deny: "no .env"\n';

function writeEnv(project: TempProject) {
  return { hook_event_name: 'PreToolUse', session_id: 's', cwd: project.dir, tool_name: 'Write', agent_id: 'a', agent_type: 'lynch', tool_input: { file_path: project.file('.env'), content: 'X=1' } };
}

function decision(r: { json: unknown }): string | undefined {
  return (r.json as { hookSpecificOutput?: { permissionDecision?: string } } | null)?.hookSpecificOutput?.permissionDecision;
}

describe('a poisoned policy cache', () => {
  it('a sed -i on every cached file (deny -> warn) is noticed, reported and rebuilt: the deny holds', () => {
    const project = makeProject(POLICY);
    expect(decision(project.run(writeEnv(project)))).toBe('deny');
    const files = fs.readdirSync(project.cacheDir).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const file = path.join(project.cacheDir, f);
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').split('"outcome":"deny"').join('"outcome":"warn"'));
    }
    const after = project.run(writeEnv(project));
    expect(decision(after)).toBe('deny');
    expect(after.stderr).toMatch(/cache-error.*does not match its seal/);
    expect(decision(project.run(writeEnv(project)))).toBe('deny');
    project.remove();
  });

  (process.platform !== 'win32' ? it : it.skip)('a cache folder other users can write is never read, even with a well-formed cache in it', () => {
    const project = makeProject(POLICY);
    // Build a good cache, then make a copy that says the opposite, as another user would plant it.
    const good = project.run(writeEnv(project));
    expect(decision(good)).toBe('deny');
    const planted = fs.mkdtempSync(path.join(os.tmpdir(), 'hp-planted-'));
    for (const f of fs.readdirSync(project.cacheDir)) fs.copyFileSync(path.join(project.cacheDir, f), path.join(planted, f));
    fs.chmodSync(planted, 0o777);
    const r = runHook(writeEnv(project), { projectDir: project.dir, cacheDir: planted });
    expect(decision(r)).toBe('deny');
    expect(r.stderr).toMatch(/cache-error.*can be written by other users/);
    project.remove();
  });

  (process.platform !== 'win32' ? it : it.skip)('a FIFO planted in place of every cache file (policy, head, views, V8 code cache) does not hold the runner: reported, rebuilt, the deny holds', () => {
    const project = makeProject(POLICY);
    expect(decision(project.run(writeEnv(project)))).toBe('deny');
    expect(decision(project.run(writeEnv(project)))).toBe('deny');
    const files = fs.readdirSync(project.cacheDir).filter((f) => /\.(json|cache|kinds)$/.test(f));
    expect(files.some((f) => f.endsWith('.head.json'))).toBe(true);
    expect(files.some((f) => f.endsWith('.cache'))).toBe(true);
    for (const f of files) {
      fs.rmSync(path.join(project.cacheDir, f));
      execFileSync('mkfifo', [path.join(project.cacheDir, f)]);
    }
    // Before: the first read of the head waited on the FIFO until the hook timeout let the call through.
    const after = runHook(writeEnv(project), { projectDir: project.dir, cacheDir: project.cacheDir, timeoutMs: 10_000 });
    expect(after.exitCode).toBe(0);
    expect(decision(after)).toBe('deny');
    expect(after.stderr).toMatch(/cache-error.*it is a FIFO, not a regular file/);
    project.remove();
  });

  it('mkfifo and mknod onto the cache folder are writes: self-protection refuses them', () => {
    const project = makeProject(POLICY);
    for (const command of [`mkfifo ${project.cacheDir}/x.head.json`, `mknod ${project.cacheDir}/y.json p`, 'mkfifo .claude/policies.yaml']) {
      const r = project.run({ hook_event_name: 'PreToolUse', session_id: 's', cwd: project.dir, tool_name: 'Bash', tool_input: { command } });
      expect([command, decision(r)]).toEqual([command, 'deny']);
    }
    project.remove();
  });
});
