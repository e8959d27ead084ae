import fc from 'fast-check';
import { aggregateReport } from './aggregate';
import { clip, escapeAttribute, escapeText, formatCount } from './escape';
import { renderReport, REPORT_CSP } from './html';

/** What an agent can plant in any string of the log. */
export const PAYLOADS = [
  '<script>window.__pwned = 1</script>',
  '"><img src=x onerror="window.__pwned=2">',
  '</style><script>window.__pwned=3</script>',
  "' onmouseover='window.__pwned=4",
  '</title></textarea><svg onload="window.__pwned=5">',
  '<!-- --><iframe src="javascript:window.__pwned=6">',
  ']]><foreignObject><body onload="window.__pwned=7"/>',
  'safe.ts\u202Ehs.exe',
  'a\u0000b\u001b[31mc\u200bd',
];

const options = { project: '<b>proj</b>', logFile: '.claude/"decisions".jsonl', generatedAt: '2026-01-16T08:00:00.000Z' };

function plantedLog(): string[] {
  return PAYLOADS.map((p, i) => JSON.stringify({
    time: `2026-01-14T09:0${i}:00.000Z`, session_id: p, event: p, tool: p, agent: p, outcome: 'deny', rules: [p], reason: p,
    paths: [p], command: p, errors: [`/p/x.yaml:1:1: error ${p}: ${p}`], bypass: { env: p, value: p, rules: [p] },
  }));
}

/** Every element name and attribute name in the page's markup. */
function markup(html: string): { tags: Set<string>; attributes: Set<string> } {
  const tags = new Set<string>();
  const attributes = new Set<string>();
  for (const m of html.matchAll(/<\/?([A-Za-z][A-Za-z0-9-]*)([^>]*)>/g)) {
    tags.add(m[1].toLowerCase());
    // Every attribute the page writes is double-quoted, and quotes in values are entities: anything else is a leak.
    for (const a of m[2].matchAll(/\s([A-Za-z0-9-:]+)="[^"]*"/g)) attributes.add(a[1].toLowerCase());
    const rest = m[2].replace(/\s([A-Za-z0-9-:]+)="[^"]*"/g, '').trim();
    if (rest !== '' && rest !== '/' && !(m[1] === '!DOCTYPE' && rest === 'html')) attributes.add(`unparsed: ${rest}`);
  }
  return { tags, attributes };
}

describe('renderReport against a hostile log', () => {
  const html = renderReport(aggregateReport(plantedLog()), { ...options, failOpen: { total: 1, failClosed: 0, byCode: [{ key: PAYLOADS[0], value: 1 }], latest: [{ time: '2026-01-14T09:00:00Z', event: PAYLOADS[1], tool: PAYLOADS[2], code: PAYLOADS[3], message: PAYLOADS[4] }], problems: [PAYLOADS[5]], files: 1 } });

  it('has only the elements and attributes it writes itself: no script, no handler, no loaded resource', () => {
    const { tags, attributes } = markup(html);
    expect([...tags].filter((t) => !['!doctype', 'html', 'head', 'meta', 'title', 'style', 'body', 'header', 'h1', 'h2', 'h3', 'p', 'span', 'code', 'section', 'dl', 'div', 'dt', 'dd', 'svg', 'g', 'rect', 'line', 'text', 'table', 'tr', 'th', 'td', 'ul', 'li', 'footer'].includes(t))).toEqual([]);
    expect([...attributes].filter((a) => !['lang', 'charset', 'http-equiv', 'content', 'name', 'class', 'id', 'title', 'colspan', 'viewbox', 'width', 'height', 'x', 'y', 'x1', 'x2', 'y1', 'y2', 'text-anchor', 'role', 'aria-label', 'aria-hidden'].includes(a))).toEqual([]);
    expect(html).not.toMatch(/<(?:script|img|iframe|foreignobject)/i);
    expect(html.match(/<\/style>/g)).toHaveLength(1);
    // The one <title> of the head, and SVG tooltips (<title> in <g>) that the page wrote.
    expect(html.match(/<title>/g)).toHaveLength(html.match(/<\/title>/g)!.length);
  });

  it('shows each payload as text', () => {
    expect(html).toContain('&lt;script&gt;window.__pwned = 1&lt;/script&gt;');
    expect(html).toContain('&quot;&gt;&lt;img src=x onerror=&quot;window.__pwned=2&quot;&gt;');
    expect(html).toContain('&#39; onmouseover=&#39;window.__pwned=4');
    expect(html).toContain('<title>hookpolicy report: &lt;b&gt;proj&lt;/b&gt;</title>');
  });

  it('shows hidden characters as escapes: a bidi override cannot disguise a path', () => {
    expect(html).toContain('safe.ts<span class="esc">\\u202e</span>hs.exe');
    expect(html).toContain('a<span class="esc">\\u0000</span>b<span class="esc">\\u001b</span>[31mc<span class="esc">\\u200b</span>d');
    expect(html).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u202a-\u202e\u2066-\u2069]/);
  });

  it('carries the Content-Security-Policy first in the head', () => {
    expect(html.indexOf(`<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">`)).toBeLessThan(html.indexOf('<title>'));
    expect(REPORT_CSP).toBe("default-src 'none'; style-src 'unsafe-inline'; img-src data:");
  });
});

describe('renderReport', () => {
  it('says so when nothing was decided, and counts garbled lines', () => {
    const html = renderReport(aggregateReport(['garbage', '{}']), { ...options, failOpen: null });
    expect(html).toContain('<p class="empty">No decisions in this period.</p>');
    expect(html).toContain('2 garbled lines skipped');
    expect(html).toContain('No fail-open counter could be read for this project.');
  });

  it('stays small for a large log: bounded timeline, top-N tables', () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => JSON.stringify({ time: new Date(Date.parse('2026-01-01T00:00:00Z') + i * 137_000).toISOString(), outcome: 'deny', rules: [`r${i}`], paths: [`p${i}`.repeat(50)], command: `c${i}`, agent: `a${i}` }));
    const html = renderReport(aggregateReport(lines), options);
    expect(html.length).toBeLessThan(200_000);
    expect(html).toContain('… and 19,975 more rules (19,975 namings)');
  });
});

describe('renderReport on planted times', () => {
  it('renders the earliest and latest dates a Date holds, decades apart, in at most 60 bars', () => {
    const lines = ['-271821-04-20T00:00:00.000Z', '+275760-09-13T00:00:00.000Z', '2026-01-14T09:00:00.000Z'].map((time) => JSON.stringify({ time, outcome: 'deny', rules: ['r'] }));
    const data = aggregateReport(lines);
    expect(data.decisions).toBe(3);
    expect(data.timeline!.buckets.length).toBeLessThanOrEqual(60);
    expect(renderReport(data, options)).toContain('<section id="timeline">');
  });
});

describe('renderReport on any log', () => {
  it('never throws, and whatever the strings, the markup is only its own', () => {
    const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom(...PAYLOADS));
    const record = fc.record({
      time: fc.oneof(fc.integer({ min: -8.64e15, max: 8.64e15 }).map((ms) => new Date(ms).toISOString()), text),
      outcome: fc.constantFrom('deny', 'ask', 'block', 'allow', 'none', 'other'),
      agent: fc.option(text), tool: fc.option(text), event: text, rules: fc.array(text, { maxLength: 3 }), paths: fc.array(text, { maxLength: 3 }),
      command: text, errors: fc.array(text, { maxLength: 2 }),
    });
    fc.assert(fc.property(fc.array(fc.oneof(record.map((r) => JSON.stringify(r)), text), { maxLength: 30 }), (lines) => {
      const { tags, attributes } = markup(renderReport(aggregateReport(lines, { top: 5 }), options));
      expect([...attributes].filter((a) => a.startsWith('unparsed') || a.startsWith('on'))).toEqual([]);
      expect([...tags].filter((t) => ['script', 'img', 'iframe', 'object', 'embed', 'link', 'foreignobject', 'a', 'form', 'input'].includes(t))).toEqual([]);
    }), { numRuns: 300 });
  });
});

describe('escape', () => {
  it.each([
    ['<a href="x">&\'', '&lt;a href=&quot;x&quot;&gt;&amp;&#39;'],
    ['line\nnext\ttab', 'line<span class="esc">\\n</span>next<span class="esc">\\t</span>tab'],
    ['lone \ud800 surrogate', 'lone <span class="esc">\\ud800</span> surrogate'],
    ['a pair 😀 stays', 'a pair 😀 stays'],
  ])('escapeText(%j)', (text, expected) => {
    expect(escapeText(text)).toBe(expected);
  });

  it('escapeAttribute, clip and formatCount', () => {
    expect(escapeAttribute('x"\u202e<')).toBe('x&quot;\\u202e&lt;');
    expect(clip('abcdef', 4)).toBe('abc…');
    expect(clip('ab😀', 3)).toBe('ab…');
    expect([formatCount(0), formatCount(999), formatCount(1000), formatCount(1234567)]).toEqual(['0', '999', '1,000', '1,234,567']);
  });
});
