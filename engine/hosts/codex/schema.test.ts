import Ajv from 'ajv';
import { codexBinaryPath, codexSchemas } from '../../../test/support/codex-schemas';
import { renderFailure, renderResponse } from '../../render';
import { diagnostic } from '../../diagnostics';
import { EVENT_NAMES } from '../../protocol';
import type { Decision, FinalOutcome, Outcome } from '../../types';
import { adapter } from './adapter';
import { CODEX_EVENTS } from './events';

const binary = codexBinaryPath();
const suite = binary ? describe : describe.skip;
if (!binary) process.stderr.write('\nCodex schema test SKIPPED: no @openai/codex platform package for this platform\n\n');

const kebab = (event: string) => event.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();

function decision(event: string, outcome: FinalOutcome, extra: Outcome[]): Decision {
  const hits = [
    ...(outcome === 'none' ? [] : [{ id: 'r', outcome: outcome as Outcome, message: 'MSG', source: { file: 'p.yaml', line: 1, column: 1 } }]),
    ...extra.map((o, i) => ({ id: `x${i}`, outcome: o, message: 'EXTRA', source: { file: 'p.yaml', line: 2, column: 1 } })),
  ];
  return {
    event, agent: null, tool: null, outcome, reason: outcome === 'none' ? null : 'MSG', decidedBy: hits.filter((h) => h.outcome === outcome), hits,
    contexts: extra.includes('context') ? ['CTX'] : [], warnings: extra.includes('warn') ? ['WARN'] : [], trace: [], bypass: null, errors: [],
  };
}

suite('what the Codex adapter writes fits the schemas of the installed Codex binary', () => {
  const schemas = binary ? codexSchemas(binary) : new Map();
  const ajv = new Ajv({ strict: false });
  const outcomes: FinalOutcome[] = ['none', 'deny', 'ask', 'allow', 'block'];

  it('finds an output schema for every event the adapter answers, and Codex has no event the adapter does not know', () => {
    const outputs = [...schemas.keys()].filter((t) => t.endsWith('.command.output')).map((t) => t.replace('.command.output', ''));
    for (const event of CODEX_EVENTS.filter((e) => e !== 'SessionEnd')) expect(outputs).toContain(kebab(event));
    // interrupt: Codex's own event, with no Claude Code counterpart a rule names.
    expect(outputs.filter((o) => o !== 'interrupt' && !CODEX_EVENTS.map(kebab).includes(o))).toEqual([]);
  });

  it.each(CODEX_EVENTS.filter((e) => e !== 'SessionEnd'))('%s: every outcome, with context and warn, and every failure', (event) => {
    const validate = ajv.compile(schemas.get(`${kebab(event)}.command.output`) as object);
    const answers = [
      ...outcomes.flatMap((o) => [[], ['context'], ['warn'], ['context', 'warn']].map((x) => renderResponse(decision(event, o, x as Outcome[]), { onError: 'closed', host: adapter }))),
      renderFailure(event, [diagnostic('no-policy', 'none')], 'closed', adapter),
      renderFailure(event, [diagnostic('no-policy', 'none')], 'open', adapter),
    ];
    for (const answer of answers) {
      if (answer.stdout === '') continue;
      const value = JSON.parse(answer.stdout);
      expect({ value, ok: validate(value), errors: validate.errors }).toEqual({ value, ok: true, errors: null });
      // Codex's semantic checks beyond the schema (output_parser): a deny and a block carry a reason.
      const specific = value.hookSpecificOutput ?? {};
      if (specific.permissionDecision) expect(specific.permissionDecision).toBe('deny');
      if (specific.permissionDecision === 'deny') expect(String(specific.permissionDecisionReason).trim()).not.toBe('');
      if (value.decision === 'block') expect(String(value.reason).trim()).not.toBe('');
    }
  });

  it('names events the way Claude Code does, so the rules need no mapping', () => {
    for (const event of CODEX_EVENTS) expect(EVENT_NAMES).toContain(event);
  });
});
