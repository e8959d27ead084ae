import { bodyStrings, renderWebhookBody, unknownBodyNames } from './webhook-body';

const values: Record<string, string> = { agent: 'lynch', tool: 'Edit', event: 'PreToolUse', reason: 'no', paths: 'a.ts, b.ts' };
const lookup = (name: string) => values[name];

describe('renderWebhookBody', () => {
  it('renders the strings of a mapping at any depth, lists included; keys and other values stay', () => {
    const body = {
      status: 'denied',
      agentName: '{{agent}}',
      meta: { summary: '{{ tool }} on {{paths}}: {{reason}}', tags: ['hook', '{{event}}'], level: 3, urgent: true, extra: null },
      '{{agent}}': 'key stays',
    };
    expect(renderWebhookBody(body, lookup)).toEqual({
      status: 'denied',
      agentName: 'lynch',
      meta: { summary: 'Edit on a.ts, b.ts: no', tags: ['hook', 'PreToolUse'], level: 3, urgent: true, extra: null },
      '{{agent}}': 'key stays',
    });
  });

  it('renders a name with no value as empty text, and leaves the template untouched', () => {
    const body = { who: '[{{agent}}|{{session}}]' };
    expect(renderWebhookBody(body, lookup)).toEqual({ who: '[lynch|]' });
    expect(body).toEqual({ who: '[{{agent}}|{{session}}]' });
  });
});

describe('unknownBodyNames', () => {
  it.each<[string, Array<{ name: string; offset: number }>]>([
    ['{{agent}} wrote {{path}}', []],
    ['{{agnt}}', [{ name: 'agnt', offset: 0 }]],
    ['see {{ tool }} and {{toolName}} and {{ env.HOME }}', [{ name: 'toolName', offset: 19 }, { name: 'env.HOME', offset: 36 }]],
    ['{{ not closed and {{constructor}}', [{ name: 'constructor', offset: 18 }]],
  ])('%p', (text, expected) => {
    expect(unknownBodyNames(text)).toEqual(expected);
  });
});

it('bodyStrings lists each string with its keys and indices', () => {
  expect(bodyStrings({ a: 'x', b: [1, 'y', { c: 'z' }] })).toEqual([
    { at: ['a'], text: 'x' }, { at: ['b', 1], text: 'y' }, { at: ['b', 2, 'c'], text: 'z' },
  ]);
});
