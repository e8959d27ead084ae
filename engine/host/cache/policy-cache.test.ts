import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { cacheDirectories, cacheFileName } from './cache-store';
import { compilePolicyFiles } from '../compile-entry';
import { loadPolicy, loadPolicyForEvent, type PolicyCompiler } from './policy-cache';
import { sealed, unsealed } from './cache-trust';
import { SWEEP_STAMP } from './cache-tidy';

let dir: string;
let cacheDir: string;
let builds: number;
const compiler = (): PolicyCompiler => ({
  compilePolicyFiles(roots: string[]) {
    builds++;
    return compilePolicyFiles(roots);
  },
});

const root = () => path.join(dir, 'policies.yaml');
const extra = (id: string, onError = 'open') => `version: 1\nsettings: { on_error: ${onError} }\nrules:\n  - { id: ${id}, on: Stop, block: "no" }\n`;

function load(dirs = [cacheDir]) {
  return loadPolicy({ roots: [root()], env: {}, compiler, dirs, engineVersion: 'test' });
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cache-'));
  cacheDir = path.join(dir, 'cache');
  builds = 0;
  fs.writeFileSync(root(), 'version: 1\ninclude: [./extra.yaml]\n');
  fs.writeFileSync(path.join(dir, 'extra.yaml'), extra('first'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const ruleIds = (r: ReturnType<typeof load>) => r.policy?.rules.map((x) => x.id);

it('builds on a miss, then serves the cached artefact while nothing changed', () => {
  const first = load();
  expect([first.fromCache, ruleIds(first), builds]).toEqual([false, ['first'], 1]);
  const second = load();
  expect([second.fromCache, ruleIds(second), builds, second.warnings]).toEqual([true, ['first'], 1, []]);
});

it('rebuilds when an included file changes', () => {
  load();
  fs.writeFileSync(path.join(dir, 'extra.yaml'), extra('second'));
  const after = load();
  expect([after.fromCache, ruleIds(after), builds]).toEqual([false, ['second'], 2]);
  expect(load().fromCache).toBe(true);
});

it('rebuilds when a source file disappears', () => {
  load();
  fs.rmSync(path.join(dir, 'extra.yaml'));
  const after = load();
  expect(after.fromCache).toBe(false);
  expect(after.policy?.broken?.map((b) => b.kind)).toEqual(['file']); // the root, whose include is gone, is left out
  expect(after.diagnostics.map((d) => d.code)).toContain('include-not-found');
});

it('rebuilds a corrupt cache file with a cache-error warning', () => {
  load();
  fs.writeFileSync(path.join(cacheDir, cacheFileName([root()], 'test')), '{"engine": "test", "sou');
  const after = load();
  expect([after.fromCache, ruleIds(after)]).toEqual([false, ['first']]);
  expect(after.warnings.map((w) => [w.code, w.severity])).toEqual([['cache-error', 'warning']]);
  const healed = load();
  expect([healed.fromCache, healed.warnings]).toEqual([true, []]);
});

it('writes the artefact atomically: no temporary files are left behind', () => {
  load();
  const name = cacheFileName([root()], 'test');
  const files = fs.readdirSync(cacheDir).filter((f) => f !== SWEEP_STAMP);
  expect(files.filter((f) => !f.includes('.view.')).sort()).toEqual([name.replace(/\.json$/, '.head.json'), name]);
  expect(files.every((f) => f.endsWith('.json'))).toBe(true);
});

it('falls back to the next folder when the first is not writable', () => {
  const blocked = path.join(dir, 'not-a-dir');
  fs.writeFileSync(blocked, '');
  const first = load([blocked, cacheDir]);
  expect([first.policy !== null, first.warnings]).toEqual([true, []]);
  expect(load([blocked, cacheDir]).fromCache).toBe(true);
});

it('warns but still answers when no folder is writable', () => {
  const blocked = path.join(dir, 'not-a-dir');
  fs.writeFileSync(blocked, '');
  const result = load([blocked]);
  expect(ruleIds(result)).toEqual(['first']);
  expect(result.warnings.map((w) => w.code)).toEqual(['cache-error']);
});

it('keys artefacts by engine version and roots', () => {
  expect(cacheFileName(['/a.yaml'], '1')).not.toBe(cacheFileName(['/a.yaml'], '2'));
  expect(cacheFileName(['/a.yaml'], '1')).not.toBe(cacheFileName(['/b.yaml'], '1'));
  expect(cacheFileName(['/a.yaml', '/b.yaml'], '1')).not.toBe(cacheFileName(['/b.yaml', '/a.yaml'], '1'));
});

it('remembers on_error of the last good artefact when the policy breaks', () => {
  fs.writeFileSync(path.join(dir, 'extra.yaml'), extra('first', 'closed'));
  expect(load().lastOnError).toBeNull();
  fs.writeFileSync(root(), 'version: 1\ninclude: [./extra.yaml]\nrules: [oops\n');
  const broken = load();
  expect(broken.policy).toBeNull();
  expect(broken.lastOnError).toBe('closed');
});

describe('cacheDirectories', () => {
  it.each<[Record<string, string>, string]>([
    [{ HOOKPOLICY_CACHE_DIR: '/c/own', XDG_CACHE_HOME: '/x' }, '/c/own'],
    [{ XDG_CACHE_HOME: '/x' }, path.join('/x', 'hookpolicy')],
    [{}, path.join('/home/u', '.cache', 'hookpolicy')],
  ])('%j', (env, first) => {
    const dirs = cacheDirectories(env, '/home/u', '/tmp');
    expect(dirs[0]).toBe(first);
    expect(dirs[1]).toMatch(/^\/tmp\/hookpolicy-/);
  });
});

describe('a policy that does not build', () => {
  // A settings error fails the whole policy (a broken rule would only be left out).
  const broken = 'version: 1\nagents: { roles: { a: [b], b: [a] } }\nrules:\n  - { id: x, on: Stop, block: y }\n';

  it('is remembered until a file it read changes, with the same diagnostics', () => {
    fs.writeFileSync(path.join(dir, 'extra.yaml'), broken);
    const first = load();
    expect([first.policy, first.fromCache, builds]).toEqual([null, false, 1]);
    const second = load();
    expect([second.policy, second.fromCache, builds]).toEqual([null, true, 1]);
    expect(second.diagnostics).toEqual(first.diagnostics);
    fs.writeFileSync(path.join(dir, 'extra.yaml'), extra('fixed'));
    const fixed = load();
    expect([ruleIds(fixed), fixed.fromCache, builds]).toEqual([['fixed'], false, 2]);
    expect(fs.readdirSync(cacheDir).filter((f) => f.endsWith('.failed.json'))).toEqual([]);
  });

  it('is not remembered when a file is missing: creating it must take effect', () => {
    fs.rmSync(path.join(dir, 'extra.yaml'));
    expect(load().diagnostics.map((d) => d.code)).toContain('include-not-found');
    expect(load().fromCache).toBe(false);
    expect(builds).toBe(2);
    fs.writeFileSync(path.join(dir, 'extra.yaml'), extra('back'));
    expect(ruleIds(load())).toEqual(['back']);
  });
});

describe('loadPolicyForEvent (the runner\'s views)', () => {
  const policyText = (id: string) => [
    'version: 1',
    'rules:',
    `  - { id: ${id}-bash, on: PreToolUse, tools: Bash, command: ["^rm "], deny: "no rm" }`,
    `  - { id: ${id}-write, on: PreToolUse, tools: Write, paths: { deny: ["**/.env"] }, deny: "no env" }`,
    `  - { id: ${id}-stop, on: Stop, block: "not yet" }`,
  ].join('\n');
  const forEvent = (event: string, tool: string | null) => loadPolicyForEvent({ roots: [root()], env: {}, compiler, dirs: [cacheDir], engineVersion: 'test' }, event, tool);
  const cacheFiles = () => fs.readdirSync(cacheDir).sort();

  beforeEach(() => fs.writeFileSync(root(), policyText('a')));

  it('builds the whole policy on a miss, then answers from the head and one view', () => {
    const first = forEvent('PreToolUse', 'Bash');
    expect([first.fromCache, first.policy?.rules.map((r) => r.id), builds]).toEqual([false, ['a-bash', 'a-write', 'a-stop'], 1]);
    const name = cacheFileName([root()], 'test').replace(/\.json$/, '');
    const views = () => cacheFiles().filter((f) => f.startsWith(`${name}.view.`));
    expect(cacheFiles().filter((f) => f.startsWith(`${name}.head`))).toHaveLength(1);
    // The build writes the view of the event that built it; each other kind cuts its own once.
    expect(views()).toHaveLength(1);
    expect(forEvent('PreToolUse', 'Bash').policy?.rules.map((r) => r.id)).toEqual(['a-bash']);
    expect(forEvent('PreToolUse', 'Write').policy?.rules.map((r) => r.id)).toEqual(['a-write']);
    expect(forEvent('PreToolUse', 'Read').policy?.rules.map((r) => r.id)).toEqual([]);
    expect(forEvent('Stop', null).policy?.rules.map((r) => r.id)).toEqual(['a-stop']);
    // One view per event for other tools, one per named tool: PreToolUse (other, Bash, Write), Stop (other).
    expect(views()).toHaveLength(4);
    expect(forEvent('PreToolUse', 'Write').policy?.rules.map((r) => r.id)).toEqual(['a-write']);
    expect(views()).toHaveLength(4);
    const none = forEvent('SessionStart', null);
    expect([none.fromCache, none.policy?.rules, none.policy?.settings.onError, builds]).toEqual([true, [], 'open', 1]);
  });

  it('rebuilds when a source changes, and never serves the old views', () => {
    forEvent('Stop', null);
    fs.writeFileSync(root(), policyText('b'));
    const after = forEvent('Stop', null);
    expect([after.fromCache, builds]).toEqual([false, 2]);
    expect(forEvent('Stop', null).policy?.rules.map((r) => r.id)).toEqual(['b-stop']);
    expect(forEvent('PreToolUse', 'Bash').policy?.rules.map((r) => r.id)).toEqual(['b-bash']);
  });

  it('after an edit, takes the last on_error from the stale head and does not read the full artefact written with it', () => {
    fs.writeFileSync(root(), `${policyText('a')}\nsettings: { on_error: closed }\n`);
    forEvent('Stop', null);
    // The artefact beside the stale head is not read: a corrupt one raises no warning.
    const artefact = path.join(cacheDir, cacheFileName([root()], 'test'));
    fs.writeFileSync(artefact, 'not sealed');
    fs.writeFileSync(root(), 'version: 1\nrules: [oops\n');
    const broken = forEvent('Stop', null);
    expect([broken.policy, broken.lastOnError, builds]).toEqual([null, 'closed', 2]);
    expect(broken.warnings).toEqual([]);
  });

  it('cuts a missing view, or one from another build, from the full artefact and writes it; without the artefact, loads the long way', () => {
    forEvent('Stop', null);
    const views = cacheFiles().filter((f) => f.includes('.view.'));
    for (const f of views) fs.rmSync(path.join(cacheDir, f));
    const missing = forEvent('PreToolUse', 'Bash');
    expect([missing.fromCache, missing.policy?.rules.map((r) => r.id), builds]).toEqual([true, ['a-bash'], 1]);
    expect(cacheFiles().filter((f) => f.includes('.view.'))).toHaveLength(1);
    expect(forEvent('PreToolUse', 'Bash').policy?.rules.map((r) => r.id)).toEqual(['a-bash']);

    // The full artefact gone too: the head alone cannot serve a new kind of event.
    const full = cacheFiles().find((f) => /^[0-9a-f]+\.json$/.test(f)) as string;
    fs.rmSync(path.join(cacheDir, full));
    const long = forEvent('PreToolUse', 'Write');
    expect([long.fromCache, long.policy?.rules.map((r) => r.id), builds]).toEqual([false, ['a-bash', 'a-write', 'a-stop'], 2]);

    const head = cacheFiles().find((f) => f.includes('.head.')) as string;
    const text = JSON.parse(unsealed(fs.readFileSync(path.join(cacheDir, head), 'utf8')) as string);
    fs.writeFileSync(path.join(cacheDir, head), sealed(JSON.stringify({ ...text, build: 'another-build' })));
    const foreign = forEvent('PreToolUse', 'Bash');
    expect([foreign.fromCache, foreign.policy?.rules.map((r) => r.id), builds]).toEqual([true, ['a-bash'], 2]);
    const rewritten = cacheFiles().filter((f) => f.includes('.view.')).map((f) => JSON.parse(unsealed(fs.readFileSync(path.join(cacheDir, f), 'utf8')) as string) as { build: string; tool: string | null });
    expect(rewritten.find((v) => v.tool === 'Bash')?.build).toBe('another-build');
  });

  it('keeps a view\'s stat fingerprint in the head once it can be trusted, and still refuses a view changed since', () => {
    const later = Date.now() + 10_000;
    const at = (now: number) => loadPolicyForEvent({ roots: [root()], env: {}, compiler, dirs: [cacheDir], engineVersion: 'test', now: () => now }, 'PreToolUse', 'Bash');
    at(Date.now());
    const headFile = path.join(cacheDir, cacheFiles().find((f) => f.includes('.head.')) as string);
    const stamps = () => (JSON.parse(unsealed(fs.readFileSync(headFile, 'utf8')) as string) as { stamps?: Record<string, string> }).stamps ?? {};
    // Just written: too recent to trust, so the seal is checked and nothing is kept.
    expect(Object.keys(stamps())).toEqual([]);
    expect(at(later).policy?.rules.map((r) => r.id)).toEqual(['a-bash']);
    const view = Object.keys(stamps())[0];
    expect(view).toMatch(/\.view\.[0-9a-f]+\.json$/);
    expect(at(later).fromCache).toBe(true);
    // An edit of the view in place, same size: its ctime moves, so the seal is checked again and fails.
    const viewFile = path.join(cacheDir, view);
    fs.writeFileSync(viewFile, fs.readFileSync(viewFile, 'utf8').replace('no rm', 'no RM'));
    const edited = at(later + 10_000);
    expect(edited.policy?.rules.map((r) => r.id)).toEqual(['a-bash']);
    expect(edited.warnings.map((w) => w.message)).toContainEqual(expect.stringMatching(/does not match its seal/));
    expect(at(later + 20_000).policy?.rules[0]?.message).toBe('no rm');
    expect(builds).toBe(1);
  });

  it('cuts a view per agent the rules name; every agent they do not name shares one, with the rules that apply to it', () => {
    fs.writeFileSync(root(), [
      'version: 1',
      'agents: { identity: [agent_type], roles: { builders: [ba, bb] } }',
      'rules:',
      '  - { id: builders-no-env, on: PreToolUse, tools: Write, agents: builders, paths: { deny: ["**/.env"] }, deny: "no env" }',
      '  - { id: ba-only, on: PreToolUse, tools: Write, agents: ba, ask: "sure?" }',
      '  - { id: everyone, on: PreToolUse, tools: Write, warn: "a write" }',
    ].join('\n'));
    const write = (agent?: string) => loadPolicyForEvent({ roots: [root()], env: {}, compiler, dirs: [cacheDir], engineVersion: 'test' },
      'PreToolUse', 'Write', { hook_event_name: 'PreToolUse', tool_name: 'Write', ...(agent ? { agent_type: agent } : {}) });
    const views = () => cacheFiles().filter((f) => f.includes('.view.'));
    const ids = (agent?: string) => write(agent).policy?.rules.map((r) => r.id);
    expect(ids('ba')).toEqual(['builders-no-env', 'ba-only', 'everyone']);
    expect(ids('bb')).toEqual(['builders-no-env', 'everyone']);
    expect(views()).toHaveLength(2);
    // The main session and agents no rule names: one view each, whatever the names.
    expect(ids()).toEqual(['everyone']);
    expect(ids('helper-1')).toEqual(['everyone']);
    expect(views()).toHaveLength(4);
    for (const name of ['helper-2', 'helper-3', 'Ba', 'ba ', 'builders']) expect(ids(name)).toEqual(['everyone']);
    expect(views()).toHaveLength(4);
    expect(ids('ba')).toEqual(['builders-no-env', 'ba-only', 'everyone']);
    expect(builds).toBe(1);
  });

  it('a head without the names its rules give agents is not used: it is written again from the full artefact', () => {
    forEvent('Stop', null);
    const head = path.join(cacheDir, cacheFiles().find((f) => f.includes('.head.')) as string);
    const headValue = () => JSON.parse(unsealed(fs.readFileSync(head, 'utf8')) as string) as Record<string, unknown>;
    const { namedAgents: _dropped, ...rest } = headValue();
    fs.writeFileSync(head, sealed(JSON.stringify(rest)));
    const r = forEvent('PreToolUse', 'Bash');
    expect([r.fromCache, r.policy?.rules.map((x) => x.id), builds]).toEqual([true, ['a-bash', 'a-write', 'a-stop'], 1]);
    expect(r.warnings.map((w) => w.message)).toContainEqual(expect.stringMatching(/ignoring a corrupt policy cache file/));
    expect(headValue().namedAgents).toEqual([]);
    expect(forEvent('PreToolUse', 'Bash').policy?.rules.map((x) => x.id)).toEqual(['a-bash']);
  });

  it('a policy that does not build is reported as by loadPolicy', () => {
    fs.writeFileSync(root(), 'version: 1\nagents: { roles: { a: [b], b: [a] } }\n');
    const r = forEvent('Stop', null);
    expect([r.policy, r.diagnostics.some((d) => d.severity === 'error')]).toEqual([null, true]);
  });
});

describe('what a build removes from the cache folder', () => {
  const withEngine = (engineVersion: string, roots = [root()]) => loadPolicy({ roots, env: {}, compiler, dirs: [cacheDir], engineVersion });
  const stemOf = (engineVersion: string, roots = [root()]) => cacheFileName(roots, engineVersion).replace(/\.json$/, '');
  const filesOf = (stem: string) => fs.readdirSync(cacheDir).filter((f) => f.startsWith(`${stem}.`)).sort();
  const age = (stem: string, days: number) => {
    const when = (Date.now() - days * 24 * 3600 * 1000) / 1000;
    for (const f of filesOf(stem)) fs.utimesSync(path.join(cacheDir, f), when, when);
  };

  it('names every build for one set of roots with the same first 8 hex digits', () => {
    expect(stemOf('1').slice(0, 8)).toBe(stemOf('2').slice(0, 8));
    expect(stemOf('1')).not.toBe(stemOf('2'));
    expect(stemOf('1', ['/other.yaml']).slice(0, 8)).not.toBe(stemOf('1').slice(0, 8));
  });

  it("removes another engine's files for the same roots once they are a week old, and nothing else", () => {
    const otherRoot = path.join(dir, 'other.yaml');
    fs.writeFileSync(otherRoot, extra('elsewhere'));
    withEngine('old');
    withEngine('recent');
    withEngine('old', [otherRoot]);
    age(stemOf('old'), 8);
    age(stemOf('recent'), 6);
    age(stemOf('old', [otherRoot]), 30);
    expect(filesOf(stemOf('old')).length).toBeGreaterThanOrEqual(2);

    const current = withEngine('test');
    expect(current.fromCache).toBe(false);
    expect(filesOf(stemOf('old'))).toEqual([]);
    expect(filesOf(stemOf('recent')).length).toBeGreaterThanOrEqual(2);
    expect(filesOf(stemOf('old', [otherRoot])).length).toBeGreaterThanOrEqual(2);
    expect(filesOf(stemOf('test')).length).toBeGreaterThanOrEqual(2);
    expect(withEngine('test').fromCache).toBe(true);
  });

  it('removes the builds of a deleted project once they are a month old', () => {
    const gone = path.join(dir, 'gone', 'policies.yaml');
    const kept = path.join(dir, 'kept', 'policies.yaml');
    for (const file of [gone, kept]) {
      fs.mkdirSync(path.dirname(file));
      fs.writeFileSync(file, extra('elsewhere'));
      withEngine('test', [file]);
    }
    fs.rmSync(path.dirname(gone), { recursive: true });
    age(stemOf('test', [gone]), 31);
    age(stemOf('test', [kept]), 31);

    // The folder was swept by the builds above, under the hour: this build leaves them.
    expect(withEngine('test').fromCache).toBe(false);
    expect(filesOf(stemOf('test', [gone])).length).toBeGreaterThanOrEqual(2);
    const twoHoursAgo = (Date.now() - 2 * 3600 * 1000) / 1000;
    fs.utimesSync(path.join(cacheDir, SWEEP_STAMP), twoHoursAgo, twoHoursAgo);
    fs.appendFileSync(root(), '# edited\n');
    expect(withEngine('test').fromCache).toBe(false);
    expect(filesOf(stemOf('test', [gone]))).toEqual([]);
    expect(filesOf(stemOf('test', [kept])).length).toBeGreaterThanOrEqual(2);
  });

  it('removes the views a rebuild no longer has', () => {
    const twoTools = 'version: 1\nrules:\n  - { id: b, on: PreToolUse, tools: Bash, command: ["^rm "], deny: "no" }\n  - { id: w, on: PreToolUse, tools: Write, paths: { deny: [".env"] }, deny: "no" }\n';
    fs.writeFileSync(root(), twoTools);
    const forEvent = (event: string, tool: string | null) => loadPolicyForEvent({ roots: [root()], env: {}, compiler, dirs: [cacheDir], engineVersion: 'test' }, event, tool);
    for (const tool of ['Bash', 'Write', 'Read']) forEvent('PreToolUse', tool);
    const views = () => filesOf(stemOf('test')).filter((f) => f.includes('.view.'));
    expect(views()).toHaveLength(3); // Bash, Write, other tools
    fs.writeFileSync(root(), 'version: 1\nrules:\n  - { id: b, on: PreToolUse, tools: Bash, command: ["^rm "], deny: "no" }\n');
    expect(forEvent('PreToolUse', 'Bash').policy?.rules.map((r) => r.id)).toEqual(['b']);
    expect(views()).toHaveLength(1); // the rebuild's Bash view; the old build's are gone
    expect(forEvent('PreToolUse', 'Write').policy?.rules).toEqual([]);
    expect(views()).toHaveLength(2); // Bash, other tools (Write has no view of its own any more)
  });
});

describe('an artefact made for other self-protection facts (guardsKey)', () => {
  // A compiler that says which facts its self-protection rules guard, as compileGuarded does.
  const guarded = (guards: string) => (): PolicyCompiler => ({
    compilePolicyFiles(roots: string[]) {
      builds++;
      return { ...compilePolicyFiles(roots), guards };
    },
  });
  const loadFor = (guards: string, readerGuards: string | null = guards) => loadPolicy({ roots: [root()], env: {}, compiler: guarded(guards), dirs: [cacheDir], engineVersion: 'test', guards: readerGuards ?? undefined });
  const eventFor = (guards: string) => loadPolicyForEvent({ roots: [root()], env: {}, compiler: guarded(guards), dirs: [cacheDir], engineVersion: 'test', guards }, 'Stop', null);

  it('is not used by a reader whose facts differ: it compiles its own, which the first reader then does not use either', () => {
    expect([loadFor('["/p","/home/a"]').fromCache, builds]).toEqual([false, 1]);
    expect([loadFor('["/p","/home/a"]').fromCache, builds]).toEqual([true, 1]);
    expect([eventFor('["/p","/home/a"]').fromCache, builds]).toEqual([true, 1]);
    expect([eventFor('["/elsewhere","/home/a"]').fromCache, builds]).toEqual([false, 2]);
    expect([loadFor('["/elsewhere","/home/a"]').fromCache, builds]).toEqual([true, 2]);
    expect([eventFor('["/p","/home/a"]').fromCache, builds]).toEqual([false, 3]);
  });

  it('is used by a reader that does not say its facts (a command without self-protection)', () => {
    loadFor('["/p"]');
    expect([loadFor('["/other"]', null).fromCache, builds]).toEqual([true, 1]);
  });
});
