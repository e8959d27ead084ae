/**
 * The memory store under `policy serve`: the built CLI on a loopback port, its project's
 * index kept open from one event to the next (read from /proc: the server holds the
 * file), each recall seeing what was recorded since, the index opened again when another
 * process replaced it, and closed, its write-ahead log folded away, when the server stops.
 * The store folder is checked at every event: one swapped for a link is refused as a
 * runner refuses it.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { startPolicyServer, type PolicyServer } from '../support/policy-server';

const repo = path.join(__dirname, '..', '..');
const hasProc = fs.existsSync('/proc/self/fd');

const POLICY = `version: 1
rules:
  - id: note-builds
    on: PostToolUse
    tools: Bash
    record: { kind: build, text: "ran {{tool_input.command}}" }
  - id: recall-last-build
    on: UserPromptSubmit
    let:
      last: { last: build }
      builds: { count: build }
    context: "{{builds}} builds; last: {{last}}"
`;

let tmp: string;
let root: string;
let store: string;
let server: PolicyServer;

beforeAll(() => {
  if (!fs.existsSync(path.join(repo, 'dist', 'cli.cjs'))) {
    execFileSync(process.execPath, [path.join(repo, 'scripts', 'build.mjs')], { stdio: 'inherit', env: { ...process.env, HOOKPOLICY_SKIP_TYPECHECK: '1' } });
  }
}, 120_000);

beforeEach(async () => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-serve-memory-')));
  root = path.join(tmp, 'p');
  store = path.join(root, '.claude', 'hookpolicy', 'memory');
  fs.mkdirSync(path.join(root, '.claude'), { recursive: true });
  fs.writeFileSync(path.join(root, '.claude', 'policies.yaml'), POLICY);
  server = await startPolicyServer({ projectDir: root, cacheDir: path.join(tmp, 'cache') });
});

afterEach(async () => {
  await server.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function post(body: unknown): Promise<string> {
  const answer = await server.post(body);
  if (answer.status !== 200) throw new Error(`HTTP ${answer.status}: ${answer.body}`);
  return answer.body;
}

const common = () => ({ session_id: 's1', transcript_path: path.join(root, 't.jsonl'), cwd: root });
const build = (command: string) => post({ ...common(), hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command }, tool_response: { stdout: '' }, tool_use_id: 'toolu_1' });
async function recall(): Promise<string> {
  const answer = JSON.parse(await post({ ...common(), hook_event_name: 'UserPromptSubmit', prompt: 'go on' })) as { hookSpecificOutput?: { additionalContext?: string } };
  return answer.hookSpecificOutput?.additionalContext ?? '';
}

/** The inode of the store's index.db as the server process holds it open, or null when it holds none (a removed one does not count). */
function heldIndex(): number | null {
  for (const fd of fs.readdirSync(`/proc/${server.child.pid}/fd`)) {
    try {
      if (fs.readlinkSync(`/proc/${server.child.pid}/fd/${fd}`) === path.join(store, 'index.db')) return fs.statSync(`/proc/${server.child.pid}/fd/${fd}`).ino;
    } catch {
      // An fd closed meanwhile.
    }
  }
  return null;
}

describe('policy serve and the memory store', () => {
  it('keeps the index open between events; each recall sees what was recorded since', async () => {
    await build('npm run build');
    expect(await recall()).toBe('1 builds; last: ran npm run build');
    const held = hasProc ? heldIndex() : null;
    if (hasProc) expect(held).toBe(fs.statSync(path.join(store, 'index.db')).ino);

    await build('make all');
    expect(await recall()).toBe('2 builds; last: ran make all');
    if (hasProc) expect(heldIndex()).toBe(held);
  });

  it('checks the store folder at every event: one swapped for a link to a planted store is refused, as a runner refuses it', async () => {
    await build('npm run build');
    expect(await recall()).toBe('1 builds; last: ran npm run build');
    // The confined agent plants a store of its own inside the project and swaps the folder for a link to it.
    const planted = path.join(root, 'planted');
    fs.mkdirSync(planted, { mode: 0o700 });
    const line = JSON.parse(fs.readFileSync(path.join(store, 'journal.jsonl'), 'utf8').split('\n')[0]) as { text: string };
    fs.writeFileSync(path.join(planted, 'journal.jsonl'), `${JSON.stringify({ ...line, text: 'ran planted' })}\n`, { mode: 0o600 });
    fs.renameSync(store, path.join(root, 'moved-away'));
    fs.symlinkSync(planted, store);

    await build('make all');
    const event = { ...common(), hook_event_name: 'UserPromptSubmit', prompt: 'go on' };
    const served = await post(event);
    const runner = execFileSync(process.execPath, [path.join(repo, 'bin', 'policy.cjs'), 'hook'], { input: JSON.stringify(event), env: { ...process.env, CLAUDE_PROJECT_DIR: root, HOOKPOLICY_CACHE_DIR: path.join(tmp, 'cache') } }).toString();
    // The recall's lets fail on the refused store, so its rule adds nothing: the runner's answer, byte for byte.
    expect(served).toBe('');
    expect(runner).toBe('');
    // Nothing was written through the link: no record appended, no index made there.
    expect(fs.readdirSync(planted)).toEqual(['journal.jsonl']);
    expect(fs.readFileSync(path.join(planted, 'journal.jsonl'), 'utf8').split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('opens the index again when another process replaced it, and closes it (no WAL left) when it stops', async () => {
    await build('npm run build');
    expect(await recall()).toBe('1 builds; last: ran npm run build');
    // Another process starts the index over: the server's open file is no longer the store's.
    for (const f of fs.readdirSync(store)) if (f.startsWith('index.db')) fs.rmSync(path.join(store, f));
    await build('make all');
    expect(await recall()).toBe('2 builds; last: ran make all');
    // The server holds the store's index.db now, not the removed one.
    if (hasProc) expect(heldIndex()).toBe(fs.statSync(path.join(store, 'index.db')).ino);

    await server.stop();
    expect(fs.existsSync(path.join(store, 'index.db-wal')) ? fs.statSync(path.join(store, 'index.db-wal')).size : 0).toBe(0);
    expect(fs.readdirSync(store).filter((f) => f.startsWith('index.db'))).toEqual(['index.db']);
  });
});
