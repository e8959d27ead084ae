import type { Decision } from '../types';
import { mergeDecisions } from './merge';

const d = (outcome: Decision['outcome'], reason: string | null, extra: Partial<Decision> = {}): Decision => ({
  event: 'PreToolUse', agent: null, tool: 'Write', outcome, reason, decidedBy: reason ? [{ id: reason, outcome: outcome as 'deny', message: reason, source: { file: 'p', line: 1, column: 1 } }] : [],
  hits: [], contexts: [], warnings: [], trace: [], bypass: null, errors: [], ...extra,
});

describe('mergeDecisions', () => {
  it('keeps the strictest outcome, with the reasons of the parts that reached it', () => {
    const m = mergeDecisions([d('allow', 'ok'), d('deny', 'no .env', { tool: 'Edit', paths: ['.env'] }), d('ask', 'sure?'), d('deny', 'no keys', { paths: ['k'] })]);
    expect(m.outcome).toBe('deny');
    expect(m.tool).toBe('Edit');
    expect(m.reason).toBe('no .env\nno keys');
    expect(m.decidedBy.map((h) => h.id)).toEqual(['no .env', 'no keys']);
    expect(m.paths).toEqual(['.env', 'k']);
  });

  it('says nothing when no part decided, and keeps every context once', () => {
    const m = mergeDecisions([d('none', null, { contexts: ['c'] }), d('none', null, { contexts: ['c', 'd'] })]);
    expect(m.outcome).toBe('none');
    expect(m.reason).toBeNull();
    expect(m.contexts).toEqual(['c', 'd']);
  });

  it('reports a broken rule once, as covering when it covers any part', () => {
    const b = { kind: 'rule' as const, name: 'x', covers: false, diagnostics: [] };
    const m = mergeDecisions([d('none', null, { broken: [b] }), d('none', null, { broken: [{ ...b, covers: true }] })]);
    expect(m.broken).toEqual([{ ...b, covers: true }]);
  });
});
