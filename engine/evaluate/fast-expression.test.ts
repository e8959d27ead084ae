import * as fs from 'fs';
import fc from 'fast-check';
import jsonata from 'jsonata';
import { fastExpression } from '../compile/fast-expression';
import { EXPRESSION_FUNCTIONS } from './expression-functions';
import { evaluateFast, JSONATA_NAMES, UNSURE } from './fast-expression';

/** What JSONata answers, or 'error' when it throws. */
async function byJsonata(text: string, input: unknown, bindings: Record<string, unknown>): Promise<unknown> {
  try {
    return await jsonata(text).evaluate(input, bindings);
  } catch {
    return 'error';
  }
}

describe('JSONATA_NAMES', () => {
  it('are the names JSONata binds itself (read from its source)', () => {
    const source = fs.readFileSync(require.resolve('jsonata'), 'utf8');
    const bound = new Set([...source.matchAll(/(?:staticFrame|environment)\.bind\('([A-Za-z]+)'/g)].map((m) => m[1]));
    expect([...JSONATA_NAMES].sort()).toEqual([...bound].sort());
  });
});

describe('fast expressions', () => {
  it.each([
    ["$delta != ''", { delta: 'x' }, {}, true],
    ["$delta != ''", {}, {}, false],
    ['tool_name = "Bash" and $agent = "ba"', { agent: 'ba' }, { tool_name: 'Bash' }, true],
    ['tool_input.command', {}, { tool_input: { command: 'ls' } }, 'ls'],
    ['$sections_delta($seen, $current)', { seen: '## a\nx\n', current: '## a\ny\n' }, {}, expect.stringContaining('- CHANGED: a')],
  ])('%s', async (text, bindings, input, expected) => {
    const fast = fastExpression(text);
    expect(fast).not.toBeNull();
    const all = { ...EXPRESSION_FUNCTIONS, ...bindings };
    expect(evaluateFast(fast!, input, all)).toEqual(expected);
    expect(await byJsonata(text, input, all)).toEqual(expected);
  });

  it.each(['$count', '$count = 1', 'tool_input.paths', '$paths', 'tool_input'])('%s is left to JSONata when its value is a function, an array or an object', (text) => {
    const input = { tool_input: { paths: ['a', 'b'] } };
    expect(evaluateFast(fastExpression(text)!, input, { paths: ['a'] })).toBe(UNSURE);
  });

  it.each(['$string(1)', 'a[0]', '"a" & "b"', 'a.b[x = 1]', '$', '$$.a', '$not(true)', 'a > 1', '($a)'])('%s is outside the subset', (text) => {
    expect(fastExpression(text)).toBeNull();
  });

  it('answers as JSONata does whenever it answers, over random expressions, events and bindings', async () => {
    const names = fc.constantFrom('agent', 'tool', 'delta', 'seen', 'x', 'count', 'string', 'sections_delta');
    const fields = fc.constantFrom('tool_name', 'tool_input', 'command', 'a', 'b', 'constructor', 'length');
    const literal = fc.oneof(fc.string({ maxLength: 4 }).map((s) => JSON.stringify(s)), fc.integer({ min: -3, max: 3 }).map(String), fc.constantFrom('true', 'false', 'null'));
    const { expr } = fc.letrec<{ expr: string }>((tie) => ({
      expr: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        literal,
        names.map((n) => `$${n}`),
        fc.array(fields, { minLength: 1, maxLength: 3 }).map((steps) => steps.join('.')),
        fc.tuple(fc.constantFrom('=', '!=', 'and', 'or'), tie('expr'), tie('expr')).map(([op, l, r]) => `(${l}) ${op} (${r})`.replace(/^\((.*)\) (\S+) \((.*)\)$/, '$1 $2 $3')),
        fc.tuple(tie('expr'), tie('expr')).map(([a, b]) => `$sections_delta(${a}, ${b})`),
        fc.tuple(tie('expr'), tie('expr')).map(([a, b]) => `$section_of(${a}, ${b})`),
        fc.tuple(tie('expr'), tie('expr')).map(([a, b]) => `$changed_sections(${a}, ${b})`),
        tie('expr').map((a) => `$sections_digest(${a})`),
      ),
    }));
    const leaf = fc.oneof(fc.string({ maxLength: 6 }), fc.integer({ min: -2, max: 2 }), fc.boolean(), fc.constant(null), fc.constant('## a\nx\n'));
    const value = fc.oneof(leaf, fc.array(leaf, { maxLength: 2 }), fc.dictionary(fc.constantFrom('command', 'a', 'b'), leaf, { maxKeys: 2 }));
    const event = fc.dictionary(fc.constantFrom('tool_name', 'tool_input', 'command', 'a'), fc.oneof(value, fc.dictionary(fc.constantFrom('command', 'a', 'b'), value, { maxKeys: 2 })), { maxKeys: 4 });
    const lets = fc.dictionary(fc.constantFrom('agent', 'tool', 'delta', 'seen', 'x', 'count'), value, { maxKeys: 4 });
    let answered = 0;
    let expressions = 0;
    await fc.assert(fc.asyncProperty(expr, event, lets, async (text, input, bound) => {
      const fast = fastExpression(text);
      if (!fast) return;
      expressions++;
      const bindings = { ...EXPRESSION_FUNCTIONS, ...bound };
      const mine = evaluateFast(fast, input, bindings);
      if (mine === UNSURE) return;
      answered++;
      expect([text, input, bound, mine]).toEqual([text, input, bound, await byJsonata(text, input, bindings)]);
    }), { numRuns: 3000 });
    // The subset is not empty in practice: most generated expressions are in it, and most of those get an answer.
    expect(expressions).toBeGreaterThan(1000);
    expect(answered).toBeGreaterThan(expressions / 3);
  }, 120_000);
});
