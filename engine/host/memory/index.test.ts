import * as fs from 'fs';
import * as path from 'path';
import type { CompiledSettings, Decision, HookEvent } from '../../types';
import { JOURNAL_FILE, memoryReadProblem, projectMemoryFacts, projectStore, recordMemory, MemoryUnavailableError } from './index';
import { openDatabase } from './sqlite';
import { forgetStoreFolders } from './store-folder';
import { tempStore } from './test-support';

const settings: CompiledSettings = { onError: 'open', bypasses: [], log: { file: null, webhook: null, record: [] }, deadlineMs: 0 };
const event: HookEvent = { hook_event_name: 'PostToolUse', session_id: 's1', tool_name: 'Bash' };

function decision(records: Decision['records']): Decision {
  return { event: 'PostToolUse', tool: 'Bash', agent: 'murdock', outcome: 'none', reason: null, decidedBy: [], hits: [], contexts: [], errors: [], trace: [], records } as unknown as Decision;
}

let store: ReturnType<typeof tempStore>;
beforeEach(() => {
  forgetStoreFolders();
  store = tempStore();
});
afterEach(() => store.remove());

describe('projectStore', () => {
  it('defaults to .claude/hookpolicy/memory, 90 days, 20000 records', () => {
    expect(projectStore('/p', { ...settings })).toEqual({ dir: '/p/.claude/hookpolicy/memory', projectRoot: '/p', retentionDays: 90, maxRecords: 20000 });
  });

  it('takes settings.memory, and is null when the store is off', () => {
    const memory = { dir: 'var/mem', retentionDays: 7, maxRecords: 10, privacy: [] };
    expect(projectStore('/p', { ...settings, memory })).toEqual({ dir: '/p/var/mem', projectRoot: '/p', retentionDays: 7, maxRecords: 10 });
    expect(projectStore('/p', { ...settings, memory: { ...memory, dir: null } })).toBeNull();
    expect(projectStore('/p', null)?.dir).toBe('/p/.claude/hookpolicy/memory');
  });
});

describe('recordMemory', () => {
  it('appends each record with the session, the agent, the event and the time', () => {
    const s = projectStore(store.projectRoot, { ...settings }) as NonNullable<ReturnType<typeof projectStore>>;
    const problems = recordMemory({ decision: decision([{ rule: 'observe', kind: 'command', importance: 0.5, text: 'npm test', fields: { command: 'npm test' } }]), event, store: s, now: Date.parse('2026-01-15T10:00:00Z') });
    expect(problems).toEqual([]);
    expect(JSON.parse(fs.readFileSync(path.join(store.dir, JOURNAL_FILE), 'utf8'))).toEqual({
      at: '2026-01-15T10:00:00.000Z', session: 's1', agent: 'murdock', event: 'PostToolUse', rule: 'observe', kind: 'command', importance: 0.5, text: 'npm test', fields: { command: 'npm test' },
    });
  });

  it('does nothing without records, and makes no folder', () => {
    const s = projectStore(store.projectRoot, { ...settings }) as NonNullable<ReturnType<typeof projectStore>>;
    expect(recordMemory({ decision: decision(undefined), event, store: s, now: 0 })).toEqual([]);
    expect(fs.existsSync(store.dir)).toBe(false);
  });

  it('returns memory-error instead of throwing when the folder cannot be used', () => {
    fs.mkdirSync(path.dirname(store.dir), { recursive: true });
    fs.writeFileSync(store.dir, 'a file where the folder should be');
    const s = projectStore(store.projectRoot, { ...settings }) as NonNullable<ReturnType<typeof projectStore>>;
    const problems = recordMemory({ decision: decision([{ rule: 'r', kind: 'k', importance: 1, text: 't', fields: {} }]), event, store: s, now: 0 });
    expect(problems.map((p) => [p.code, p.severity])).toEqual([['memory-error', 'warning']]);
    expect(problems[0].message).toMatch(/cannot append 1 record\(s\) to the memory journal: .* is not a folder/);
  });
});

describe('projectMemoryFacts', () => {
  it('opens nothing until a question, then reads the journal', () => {
    const s = projectStore(store.projectRoot, { ...settings }) as NonNullable<ReturnType<typeof projectStore>>;
    const memory = projectMemoryFacts(s, Date.now);
    expect(fs.existsSync(store.dir)).toBe(false);
    expect(memory.count('command', 'session', { session: 's1', agent: null })).toBe(0);
    expect(fs.existsSync(path.join(store.dir, 'index.db'))).toBe(true);
    expect(memory.failure()).toBeUndefined();
    memory.close();
  });

  it('throws the same failure at every question, and says why', () => {
    fs.mkdirSync(path.dirname(store.dir), { recursive: true });
    fs.writeFileSync(store.dir, '');
    const s = projectStore(store.projectRoot, { ...settings }) as NonNullable<ReturnType<typeof projectStore>>;
    const memory = projectMemoryFacts(s, Date.now);
    expect(() => memory.summaries(3, null)).toThrow(/is not a folder/);
    expect(() => memory.search('x', 3)).toThrow(/is not a folder/);
    // The rule just does not apply: the runner's warning says why.
    const problem = memoryReadProblem(memory.failure(), s.dir);
    expect([problem?.code, problem?.severity, problem?.file]).toEqual(['memory-error', 'warning', s.dir]);
    expect(problem?.message).toMatch(/^a rule could not read the memory store: .* is not a folder \(a rule that denies, asks or blocks fails per on_error; any other does not apply\)$/);
  });

  it('keeps the first question that failed on an open index as the failure', () => {
    const s = projectStore(store.projectRoot, { ...settings }) as NonNullable<ReturnType<typeof projectStore>>;
    const memory = projectMemoryFacts(s, Date.now);
    expect(memory.count('command', 'session', { session: 's1', agent: null })).toBe(0);
    expect(memory.failure()).toBeUndefined();
    // The index breaks under the open connection: its table is gone.
    const db = openDatabase(path.join(s.dir, 'index.db'), 1000);
    db.exec('DROP TABLE records_fts; DROP TABLE records');
    db.close();
    expect(() => memory.last('command', 'session', { session: 's1', agent: null })).toThrow(/no such table: records/);
    expect(memoryReadProblem(memory.failure(), s.dir)?.message).toMatch(/could not read the memory store: no such table: records /);
    memory.close();
  });
});

describe('memoryReadProblem', () => {
  it('names the fix for a missing better-sqlite3, also for the error of another bundle', () => {
    const problem = memoryReadProblem(new MemoryUnavailableError('Cannot find module'), '/p/m');
    expect([problem?.code, problem?.severity]).toEqual(['memory-unavailable', 'warning']);
    expect(problem?.hint).toMatch(/npm install-scripts approve better-sqlite3.*npm rebuild better-sqlite3/);
    const copy = Object.assign(new Error('the memory store cannot be read: ...'), { code: 'memory-unavailable' });
    expect(memoryReadProblem(copy, '/p/m')?.code).toBe('memory-unavailable');
    expect(memoryReadProblem(undefined, '/p/m')).toBeNull();
  });
});
