import { matchesFilter, type DecisionLogFilter, type FilterableRecord } from './filter';

const record: FilterableRecord = { time: '2026-01-15T10:03:00.000Z', session_id: 'b7c2', event: 'PreToolUse', tool: 'Edit', agent: null, outcome: 'deny', rules: ['a', 'b'] };
const at = (iso: string) => Date.parse(iso);

describe('matchesFilter', () => {
  it.each<[string, DecisionLogFilter, boolean]>([
    ['no filter', {}, true],
    ['since, at the second', { sinceMs: at('2026-01-15T10:03:00.000Z') }, true],
    ['since, later', { sinceMs: at('2026-01-15T10:03:00.001Z') }, false],
    ['until, at the second', { untilMs: at('2026-01-15T10:03:00.000Z') }, true],
    ['until, earlier', { untilMs: at('2026-01-15T10:02:59.999Z') }, false],
    ['main is the null agent', { agents: ['main'] }, true],
    ['another agent', { agents: ['lynch'] }, false],
    ['any of the rules', { rules: ['x', 'b'] }, true],
    ['none of the rules', { rules: ['x'] }, false],
    ['outcome', { outcomes: ['ask', 'deny'] }, true],
    ['other outcome', { outcomes: ['allow'] }, false],
    ['tool', { tools: ['Edit'] }, true],
    ['event', { events: ['Stop'] }, false],
    ['session', { sessions: ['b7c2'] }, true],
    ['options combine with and', { outcomes: ['deny'], tools: ['Bash'] }, false],
  ])('%s', (_name, filter, expected) => {
    expect(matchesFilter(record, filter)).toBe(expected);
  });

  it('a record without a tool or a session matches no tool or session filter', () => {
    expect(matchesFilter({ ...record, tool: null, session_id: null }, { tools: ['Edit'] })).toBe(false);
    expect(matchesFilter({ ...record, tool: null, session_id: null }, { sessions: ['b7c2'] })).toBe(false);
  });

  it('a time that is not a date matches no time filter', () => {
    expect(matchesFilter({ ...record, time: 'soon' }, { sinceMs: 0 })).toBe(false);
    expect(matchesFilter({ ...record, time: 'soon' }, {})).toBe(true);
  });
});
