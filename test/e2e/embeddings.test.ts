/**
 * Search with embeddings through the built runner, on temp projects, against a fake
 * OpenAI-compatible endpoint on 127.0.0.1: the memory process a SessionEnd starts embeds
 * the records; a prompt's search finds by meaning what full text cannot and says how it
 * ranked (in the answer, through the let's `ranking`, and in `policy explain`'s trace);
 * with the endpoint refusing or silent, it ranks by full text within its bound and says why.
 */
import { spawn } from 'node:child_process';
import { startFakeModel, type FakeModelServer } from '../support/fake-model-server';
import { firstSession, memoryPolicy as policy, proseOf, recordOf, runAsync as run, STORE, waitFor } from '../support/memory-process';
import { makeProject, POLICY_BIN, type TempProject } from '../support/run-hook';
import { openMemoryIndex } from '../../engine/host/memory/memory-index';
import { forgetStoreFolders } from '../../engine/host/memory/store-folder';


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

describe('embeddings', () => {
  const withEmbeddings = (extra = '') => policy(`    summarizer: { url: "${model.url}", model: m }\n    embeddings: { url: "${model.url}/v1", model: fake-embed${extra} }`);

  it('the memory process embeds the records; a search finds by meaning and says how it ranked, in the answer and the trace', async () => {
    p = makeProject(withEmbeddings());
    await firstSession(p);
    await waitFor(proseOf(p));
    const vectors = await waitFor(() => {
      const index = openMemoryIndex({ dir: p!.file(STORE), projectRoot: p!.dir, retentionDays: 90, maxRecords: 20_000, now: Date.now });
      try {
        const table = index.db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'record_vectors'").get();
        const n = table ? (index.db.prepare('SELECT count(*) AS n FROM record_vectors').get() as { n: number }).n : 0;
        // The three records and the prose summary.
        return n === 4 ? n : null;
      } finally {
        index.close();
      }
    });
    expect(vectors).toBe(4);

    // "login" shares no word with any record; its meaning is near the JWT ones.
    const prompt = await run(p, { hook_event_name: 'UserPromptSubmit', session_id: 's2', prompt: 'login' });
    const context = JSON.parse(prompt.stdout).hookSpecificOutput.additionalContext as string;
    expect(context.split('\n')[0]).toBe('Related (full text and embeddings):');
    expect(context).toContain('- Write src/auth/jwt.ts (');

    const eventFile = p.write('events/prompt.json', JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: 's2', cwd: p.dir, prompt: 'login' }));
    const explained = await new Promise<string>((resolve) => {
      const child = spawn(process.execPath, [POLICY_BIN, 'explain', eventFile], { cwd: p!.dir, env: { ...process.env, CLAUDE_PROJECT_DIR: p!.dir } });
      const out: Buffer[] = [];
      child.stdout.on('data', (c: Buffer) => out.push(c));
      child.on('close', () => resolve(Buffer.concat(out).toString('utf8')));
    });
    expect(explained).toContain('let found.ranking = "full text and embeddings"');
  });

  it.each([
    ['refuses connections', 'http://127.0.0.1:9/v1', '', /^full text only: the embeddings endpoint did not answer \(connect ECONNREFUSED 127\.0\.0\.1:9\)$/],
    ['does not answer in time', 'SLOW', ', timeout_ms: 400', /^full text only: the embeddings endpoint did not answer \(no answer within 400 ms\)$/],
  ])('an endpoint that %s: the search ranks by full text within its bound, and says so', async (_, url, extra, note) => {
    model.options.embeddingsDelayMs = 10_000;
    const at = url === 'SLOW' ? `${model.url}/v1` : url;
    p = makeProject(policy(`    embeddings: { url: "${at}", model: fake-embed${extra} }`));
    await firstSession(p);
    const prompt = await run(p, { hook_event_name: 'UserPromptSubmit', session_id: 's2', prompt: 'jwt middleware' });
    expect(prompt.code).toBe(0);
    expect(prompt.ms).toBeLessThan(3000);
    const context = JSON.parse(prompt.stdout).hookSpecificOutput.additionalContext as string;
    const [first, ...found] = context.split('\n');
    expect(first.replace(/^Related \((.*)\):$/, '$1')).toMatch(note);
    expect(found[0]).toMatch(/^- Write src\/auth\/jwt\.ts \(/);
    if (url !== 'SLOW') {
      // The SessionEnd's process could not embed: one embedding-error record.
      expect(await waitFor(recordOf(p, 'embedding-error'))).toMatchObject({ text: expect.stringContaining('records not embedded: the embeddings endpoint did not answer (connect ECONNREFUSED') });
    } else {
      await waitFor(() => model.to('/v1/embeddings').length >= 2);
    }
  });
});
