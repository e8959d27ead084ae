import { compiledPolicy, compiledRule } from '../../test/support/compiled';
import { memoryContext } from '../../test/support/memory-facts';
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
