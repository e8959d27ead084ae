import { compiledPolicy, compiledRule } from '../../test/support/compiled';
import { memoryContext } from '../../test/support/memory-facts';
import { evaluate } from '../evaluate';
import { ExpressionError, evaluateExpression, isTruthy } from './expression';

describe('isTruthy', () => {
  test.each<[unknown, boolean]>([
    [true, true], [false, false], ['x', true], ['', false], [1, true], [-2, true], [0, false], [Number.NaN, false],
    [[1], true], [[], false], [{}, true], [null, false], [undefined, false],
  ])('%p -> %p', (value, expected) => {
    expect(isTruthy(value)).toBe(expected);
  });
});

describe('evaluateExpression', () => {
  test('binds $agent, $tool, $paths and $env', async () => {
    const value = await evaluateExpression('$agent & "/" & $tool & "/" & $paths[1] & "/" & $env.HOME & "/" & x', { x: 'ev' },
      { agent: 'ba', tool: 'Write', paths: ['a', 'b'], env: { HOME: 'h' } });
    expect(value).toBe('ba/Write/b/h/ev');
  });

  test.each(['$error("no")', 'a = ', '$undefinedFunction()'])('%s rejects with an ExpressionError', async (text) => {
    await expect(evaluateExpression(text, {}, {})).rejects.toBeInstanceOf(ExpressionError);
  });

  test('a runaway recursion stops at the depth guard', async () => {
    const error = (await evaluateExpression('($f := function($x) { $f($x + 1) + 1 }; $f(1))', {}, {}, 0).catch((e: unknown) => e)) as ExpressionError;
    expect(error).toBeInstanceOf(ExpressionError);
    expect(error.timedOut).toBe(false);
  });

  test('a tail recursion that never ends (no depth grows) stops at the time budget', async () => {
    const error = (await evaluateExpression('($f := function($x) { $f($x + 1) }; $f(1))', {}, {}, 30).catch((e: unknown) => e)) as ExpressionError;
    expect(error).toBeInstanceOf(ExpressionError);
    expect(error.timedOut).toBe(true);
  });

  test('an expression past its time budget is a timeout', async () => {
    const error = (await evaluateExpression('$reduce([1..2000000], function($a, $b) { $a + $b })', {}, {}, 20).catch((e: unknown) => e)) as ExpressionError;
    expect(error).toBeInstanceOf(ExpressionError);
    expect(error.timedOut).toBe(true);
  });
});

describe('deadline_ms through evaluate', () => {
  test('an expression that outlives the deadline is a deadline-exceeded error on its rule', async () => {
    const rule = compiledRule({ id: 'slow', events: ['Stop'], outcome: 'block', when: '$reduce([1..2000000], function($a, $b) { $a + $b }) > 0' });
    const policy = compiledPolicy([rule], { deadlineMs: 20 });
    const decision = await evaluate(policy, { hook_event_name: 'Stop' }, memoryContext({}, {}, () => 0));
    expect(decision.trace[0].status).toBe('error');
    expect(decision.errors.map((e) => e.code)).toEqual(['deadline-exceeded']);
  });
});

describe('lazy loading', () => {
  function loadsJsonata(rules: Parameters<typeof compiledPolicy>[0]): Promise<boolean> {
    let loaded = false;
    let evaluateFn: typeof import('../evaluate').evaluate | undefined;
    jest.isolateModules(() => {
      jest.doMock('jsonata', () => {
        loaded = true;
        return jest.requireActual('jsonata');
      });
      evaluateFn = require('../evaluate').evaluate;
    });
    return evaluateFn!(compiledPolicy(rules), { hook_event_name: 'Stop' }, memoryContext()).then(() => loaded);
  }

  afterEach(() => jest.dontMock('jsonata'));

  test('policies without expressions never load jsonata', async () => {
    expect(await loadsJsonata([compiledRule({ events: ['Stop'], outcome: 'block' })])).toBe(false);
  });

  test('a rule whose when is reached loads it', async () => {
    expect(await loadsJsonata([compiledRule({ events: ['Stop'], when: 'true' })])).toBe(true);
  });

  test('a when behind a failing condition does not', async () => {
    expect(await loadsJsonata([compiledRule({ events: ['Stop'], agents: ['ba'], when: 'true' })])).toBe(false);
  });
});
