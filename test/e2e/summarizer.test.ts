/**
 * Prose summaries through the built runner, as Claude Code runs it, on temp projects,
 * against a fake model endpoint on 127.0.0.1 (Anthropic- and OpenAI-shaped) and a
 * stand-in for the Claude Code CLI: a SessionEnd that records its summary answers at once
 * and starts the memory process detached; the process's prose summary (or its
 * summary-error) arrives in the store, and the next session's recall prefers it; a runner
 * started under the process's marker records nothing.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fakeClaudeRuns, writeFakeClaude } from '../support/fake-claude';
import { startFakeModel, type FakeModelServer } from '../support/fake-model-server';
import { firstSession, journal, memoryPolicy as policy, proseOf, recordOf, RULES as rules, runAsync as run, STORE, waitFor } from '../support/memory-process';
import { makeProject, type TempProject } from '../support/run-hook';
import { claudeArgs } from '../../engine/host/summarizer/claude-cli';
import { forgetStoreFolders } from '../../engine/host/memory/store-folder';

const errorOf = (p: TempProject) => recordOf(p, 'summary-error');

let model: FakeModelServer;
let p: TempProject | undefined;
beforeEach(async () => {
  forgetStoreFolders();
  model = await startFakeModel();
});
afterEach(async () => {
  p?.remove();
  p = undefined;
  await model.close();
});

describe('a prose summary from an endpoint', () => {
  it('anthropic: SessionEnd answers without waiting; the prose summary follows and the next session is given it, as data', async () => {
    // The model takes 3 s: the runner has answered long before.
    model.options.chatDelayMs = 3000;
    model.options.summary = 'Built the JWT middleware in src/auth/jwt.ts; the build passes. Open: {{prompt}} stays literal.';
    p = makeProject(policy(`    summarizer: { url: "${model.url}", api: anthropic, model: claude-haiku-4-5, key_env: TEAM_KEY }`));
    const end = await firstSession(p, 's1', { TEAM_KEY: 'sk-team-1' });
    expect([end.code, end.stdout, end.stderr]).toEqual([0, '', '']);
    expect(end.ms).toBeLessThan(2500);
    expect(journal(p).filter((r) => r.kind === 'summary').map((r) => r.text)).toEqual(['1 file changed (src/auth/jwt.ts); 1 command (npm run build)']);

    const prose = await waitFor(proseOf(p));
    expect(prose).toMatchObject({
      session: 's1', event: 'SessionEnd', rule: 'session-summary', kind: 'summary', importance: 1,
      text: 'Built the JWT middleware in src/auth/jwt.ts; the build passes. Open: {{prompt}} stays literal.',
      fields: { source: 'anthropic', model: 'claude-haiku-4-5', replaces: '3', observations: '2' },
    });
    const [request] = model.to('/v1/messages');
    expect(request.headers['x-api-key']).toBe('sk-team-1');
    expect(request.headers['anthropic-version']).toBe('2023-06-01');
    const prompt = (request.body.messages as Array<{ content: string }>)[0].content;
    expect(prompt).toMatch(/the main work\n- the problems solved\n- the issues left open/);
    expect(prompt).toMatch(/\] file-change: Write src\/auth\/jwt\.ts\n\[\d\d:\d\d\] command: \$ npm run build\n$/);
    // The key is named in the policy, never written anywhere by hookpolicy.
    expect(fs.readFileSync(p.file(`${STORE}/journal.jsonl`), 'utf8')).not.toContain('sk-team-1');

    const next = await run(p, { hook_event_name: 'SessionStart', session_id: 's2', source: 'startup' });
    expect(JSON.parse(next.stdout).hookSpecificOutput.additionalContext).toMatch(
      /^Earlier sessions:\n- \[\d+\/\d+\] Built the JWT middleware in src\/auth\/jwt\.ts; the build passes\. Open: \{\{prompt\}\} stays literal\.$/,
    );
  });

  it('openai: Chat Completions with a Bearer key; a failing endpoint leaves a summary-error and the deterministic summary', async () => {
    p = makeProject(policy(`    summarizer: { url: "${model.url}/v1", api: openai, model: gpt-4o-mini, key_env: TEAM_KEY, max_tokens: 200 }`));
    await firstSession(p, 's1', { TEAM_KEY: 'sk-openai' });
    expect(await waitFor(proseOf(p))).toMatchObject({ text: 'Prose summary.', fields: { source: 'openai', model: 'gpt-4o-mini' } });
    const [request] = model.to('/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer sk-openai');
    expect(request.body).toMatchObject({ model: 'gpt-4o-mini', max_tokens: 200 });

    model.options.chatStatus = 500;
    const end = await firstSession(p, 's2', { TEAM_KEY: 'sk-openai' });
    expect([end.code, end.stdout, end.stderr]).toEqual([0, '', '']);
    expect(await waitFor(errorOf(p))).toMatchObject({
      session: 's2', kind: 'summary-error', importance: 0,
      text: 'no prose summary of session s2: the endpoint answered 500: fake failure 500',
      fields: { source: 'openai', model: 'gpt-4o-mini', replaces: expect.any(String) },
    });
    const next = await run(p, { hook_event_name: 'SessionStart', session_id: 's3', source: 'startup' });
    const context = JSON.parse(next.stdout).hookSpecificOutput.additionalContext as string;
    expect(context.split('\n').slice(1).map((l) => l.replace(/^- \[[\d/]+\] /, ''))).toEqual(['1 file changed (src/auth/jwt.ts); 1 command (npm run build)', 'Prose summary.']);
  });

  it('a key_env whose variable is not set: a summary-error, and nothing is sent', async () => {
    p = makeProject(policy(`    summarizer: { url: "${model.url}", model: m, key_env: TEAM_KEY }`));
    await firstSession(p);
    expect(await waitFor(errorOf(p))).toMatchObject({ text: 'no prose summary of session s1: the environment variable TEAM_KEY (key_env) is not set' });
    expect(model.requests).toEqual([]);
  });
});

describe('a prose summary from the headless CLI', () => {
  it('runs `claude -p` found on PATH, hooks disabled, outside the project, with the marker; stores its answer', async () => {
    p = makeProject(policy('    summarizer: { command: claude, model: claude-haiku-4-5 }'));
    const bin = path.join(p.cacheDir, 'bin');
    writeFakeClaude(bin);
    const log = path.join(p.cacheDir, 'claude-runs.jsonl');
    const env = { PATH: `${bin}${path.delimiter}${process.env.PATH}`, FAKE_CLAUDE_LOG: log, FAKE_CLAUDE_SUMMARY: 'Wrote the JWT middleware and built it.' };
    const end = await firstSession(p, 's1', env);
    expect([end.code, end.stdout, end.stderr]).toEqual([0, '', '']);
    expect(await waitFor(proseOf(p))).toMatchObject({ text: 'Wrote the JWT middleware and built it.', fields: { source: 'claude-cli', model: 'claude-haiku-4-5' } });
    const runs = fakeClaudeRuns(log);
    expect(runs).toHaveLength(1);
    expect(runs[0].argv).toEqual(claudeArgs('claude-haiku-4-5'));
    expect(runs[0].argv).toContain('{"disableAllHooks":true}');
    expect(runs[0].marker).toBe('1');
    expect(runs[0].projectDir).toBeNull();
    expect(path.relative(p.dir, runs[0].cwd).startsWith('..')).toBe(true);
    expect(runs[0].prompt).toContain('command: $ npm run build');
  });

  it('a CLI that is not found: a summary-error saying where it looked', async () => {
    p = makeProject(policy('    summarizer: { command: claude }'));
    await firstSession(p, 's1', { PATH: path.dirname(process.execPath), HOME: p.cacheDir });
    expect(await waitFor(errorOf(p))).toMatchObject({ text: expect.stringContaining('claude is not found (looked on PATH, ~/.claude/local and ~/.local/bin)') });
  });
});

describe('the loop guard', () => {
  it('a runner started under the marker records nothing and starts nothing; the answer is the same', async () => {
    p = makeProject(policy(`    summarizer: { url: "${model.url}", model: m }`));
    const marked = { HOOKPOLICY_SUMMARIZER: '1' };
    const end = await firstSession(p, 's1', marked);
    expect([end.code, end.stdout, end.stderr]).toEqual([0, '', '']);
    const start = await run(p, { hook_event_name: 'SessionStart', session_id: 's1', source: 'startup' }, marked);
    expect(start.code).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(journal(p)).toEqual([]);
    expect(model.requests).toEqual([]);
  });

  it('a policy without summarizer or embeddings starts no process', async () => {
    p = makeProject(`version: 1\n${rules}`);
    await firstSession(p);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(journal(p).map((r) => r.kind)).toEqual(['file-change', 'command', 'summary']);
  });
});
