/**
 * docs/events.md holds a table generated from eventProtocols() and outcomeSupport. This
 * test fails when the two drift apart; `UPDATE_DOCS=1 npx jest engine/events-doc.test.ts`
 * rewrites the generated part (between the markers) and leaves the prose alone.
 */
import { expectGeneratedSection } from '../test/support/doc-sections';
import { eventProtocols, outcomeSupport, type Audience, type EventProtocol } from './protocol';
import { OUTCOMES, type Outcome } from './types';

const START = '<!-- events-table:start (generated from engine/protocol.ts; UPDATE_DOCS=1 npx jest engine/events-doc.test.ts) -->';
const END = '<!-- events-table:end -->';

const READER: Record<Audience, string> = { model: 'Claude', user: 'user', both: 'user + Claude', nowhere: 'nobody' };

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** outcomeSupport's `via`, shortened for a table cell. */
function viaCell(event: string, outcome: Outcome): string {
  const s = outcomeSupport(event, outcome);
  if (!s.supported) return '—';
  const via = s.via
    .replace('hookSpecificOutput.', '')
    .replace('{"decision": "block", "reason": ...}', 'decision "block"')
    .replace('exit code 2, message on stderr', 'exit 2 + stderr');
  return `\`${via}\` → ${READER[s.audience]}`.replace('`exit 2 + stderr`', 'exit 2 + stderr');
}

function row(p: EventProtocol): string {
  const matcher = p.matcherField ? `\`${p.matcherField}\`` : '—';
  const blocks = p.unsupported ? 'not supported' : p.block ? 'yes' : 'no';
  const reader = p.block && !p.unsupported ? READER[p.blockAudience] : '—';
  const notes = [p.unsupported ? `Do not register hookpolicy here: ${p.unsupported}` : '', p.note ?? ''].filter(Boolean).join(' ');
  const cells = [`**${p.event}**`, matcher, blocks, reader, ...OUTCOMES.map((o) => viaCell(p.event, o)), notes || ' '];
  return `| ${cells.map(cell).join(' | ')} |`;
}

/** The generated markdown table, one row per event in contract order. */
function eventsTable(): string {
  const head = ['Event', 'Matcher field', 'Can block', 'Block message read by', ...OUTCOMES, 'Notes'];
  return [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...eventProtocols().map(row),
  ].join('\n');
}

describe('docs/events.md', () => {
  it('contains the table generated from eventProtocols()', () => {
    expectGeneratedSection('events.md', START, END, eventsTable());
  });

  it('has a row for every event, with what deny does on PreToolUse and that SubagentStart cannot block', () => {
    const table = eventsTable();
    expect(table.split('\n')).toHaveLength(eventProtocols().length + 2);
    expect(table).toContain('| **PreToolUse** | `tool_name` | yes | Claude | `permissionDecision "deny"` → Claude |');
    expect(table).toMatch(/\| \*\*SubagentStart\*\* \| `agent_type` \| no \| — \| — \| — \| — \| — \| `systemMessage` → user \| `additionalContext` → Claude \|/);
    expect(table).toContain('| **TeammateIdle** | — | yes | Claude | — | — | — | exit 2 + stderr → Claude |');
  });
});
