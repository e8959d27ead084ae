/**
 * The page `policy report` writes, opened in a real headless Chromium (Debian's package,
 * driven by playwright-core): it renders (a screenshot), logs no console error and throws
 * no page error, requests nothing but itself, and shows the counts a reader looks for;
 * strings an agent planted in every field of the log render as text and run nothing.
 * In CI (`CI` set) a missing /usr/bin/chromium fails the suite; locally it is skipped.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ensureBuilt } from '../support/hook-process';
import { decisionLine, policyReport, reportProject } from '../support/report-project';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const available = fs.existsSync(CHROMIUM);

/** Strings the confined agent can put in any field of its log lines. */
const PLANTED = [
  '<script>window.__pwned = 1</script>',
  '"><img src=x onerror="window.__pwned=2">',
  '</style><script>window.__pwned=3</script>',
  "' onmouseover='window.__pwned=4' x='",
  '</title><svg onload="window.__pwned=5">',
  '<iframe src="javascript:window.__pwned=6"></iframe>',
  '<link rel=stylesheet href="http://127.0.0.1:9/x.css">',
  `deep/${'nested/'.repeat(60)}file.ts`,
];

/** A day of decisions by three agents over four rules, then one line per planted string in every field. */
function log(): string {
  const lines: string[] = [];
  const start = Date.parse('2026-01-14T00:00:00Z');
  for (let i = 0; i < 1200; i++) {
    const outcome = ['deny', 'deny', 'ask', 'allow', 'none', 'block'][i % 6];
    const rule = outcome === 'none' ? [] : [['no-env-writes', 'no-force-push', 'ask-migrations', 'allow-tests'][i % 4]];
    lines.push(decisionLine(new Date(start + i * 72_000).toISOString(), outcome, {
      agent: [null, 'murdock', 'ba'][i % 3], rules: rule, tool: i % 5 === 0 ? 'Write' : 'Bash',
      paths: outcome === 'deny' ? [i % 4 === 0 ? 'src/app.ts' : '.env'] : [], command: i % 5 === 0 ? undefined : `git push --force origin b${i % 2}`,
      ...(i % 100 === 7 ? { errors: ['.claude/policies.yaml:12:5: error expression-error: boom'] } : {}),
    }));
  }
  PLANTED.forEach((p, i) => lines.push(decisionLine(new Date(start + i * 1000).toISOString(), 'deny', {
    session_id: p, event: p, tool: p, agent: p, rules: [p], reason: p, paths: [p], command: p, errors: [p], bypass: { env: p, value: p, rules: [p] },
  })));
  lines.push('{"time": garbled');
  return `${lines.join('\n')}\n`;
}

if (!available && process.env.CI) {
  describe('policy report in Chromium', () => {
    it(`needs ${CHROMIUM} (Debian's chromium package; .ci/run installs it)`, () => {
      throw new Error(`${CHROMIUM} is missing: install Debian's chromium package`);
    });
  });
} else if (!available) {
  describe.skip(`policy report in Chromium (skipped: ${CHROMIUM} is missing; apt-get install chromium)`, () => {
    it('renders', () => undefined);
  });
} else {
  describe('policy report in Chromium', () => {
    let browser: Browser;
    let dir: string;
    let page: Page;
    let pageFile: string;
    const consoleErrors: string[] = [];
    const pageErrors: string[] = [];
    const requests: string[] = [];
    const dialogs: string[] = [];

    beforeAll(async () => {
      ensureBuilt();
      dir = reportProject(log());
      const run = policyReport(dir, []);
      expect([run.code, run.stderr]).toEqual([0, '']);
      expect(run.stdout).toMatch(/^wrote hookpolicy-report\.html: 1,?208 decisions .*, 1 garbled line skipped\n$/);
      pageFile = path.join(dir, 'hookpolicy-report.html');
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
      page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') consoleErrors.push(`${m.type()}: ${m.text()}`); });
      page.on('pageerror', (e) => pageErrors.push(e.message));
      page.on('request', (r) => requests.push(r.url()));
      page.on('dialog', (d) => { dialogs.push(d.message()); void d.dismiss(); });
      await page.goto(pathToFileURL(pageFile).href, { waitUntil: 'load' });
      // Hover each planted string's cells: an onmouseover that got in would fire now.
      for (const cell of await page.locator('td.key').all()) await cell.hover({ force: true, timeout: 2000 }).catch(() => undefined);
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('renders to a real screenshot', async () => {
      const png = await page.screenshot({ fullPage: true });
      if (process.env.HOOKPOLICY_REPORT_SCREENSHOT) fs.writeFileSync(process.env.HOOKPOLICY_REPORT_SCREENSHOT, png);
      expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      const [width, height] = [png.readUInt32BE(16), png.readUInt32BE(20)];
      expect(width).toBe(1200);
      expect(height).toBeGreaterThan(1500);
      expect(png.length).toBeGreaterThan(50_000);
    });

    it('logs no console error or warning, throws no page error, opens no dialog, requests nothing but itself', () => {
      expect(consoleErrors).toEqual([]);
      expect(pageErrors).toEqual([]);
      expect(dialogs).toEqual([]);
      expect(requests).toEqual([pathToFileURL(pageFile).href]);
    });

    it('runs nothing the agent planted: no element of theirs, no handler fired', async () => {
      expect(await page.evaluate('window.__pwned')).toBeUndefined();
      expect(await page.locator('script, img, iframe, link, object, embed, foreignObject, [onerror], [onload], [onmouseover]').count()).toBe(0);
      expect(await page.title()).toBe(`hookpolicy report: ${path.basename(dir)}`);
      expect(await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')).toBe("default-src 'none'; style-src 'unsafe-inline'; img-src data:");
    });

    it('shows each planted string as text', async () => {
      const paths = await page.locator('#denied-paths').innerText();
      const commands = await page.locator('#denied-commands').innerText();
      for (const p of PLANTED.slice(0, 7)) {
        expect(paths).toContain(p);
        expect(commands).toContain(p);
      }
      expect(await page.locator('#agents').innerText()).toContain('</title><svg onload="window.__pwned=5">');
    });

    it('shows the counts per rule and per agent, and the top denied path', async () => {
      const rows = (id: string) => page.locator(`#${id} tr`).evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td, th')].map((c) => (c as unknown as { innerText: string }).innerText.trim()).filter((t) => t !== '')));
      const rules = await rows('rules');
      expect(rules[0]).toEqual(['rule', 'deny', 'ask', 'block', 'allow', 'none', 'total']);
      // Decision i: outcome deny, deny, ask, allow, none, block by i % 6 (none names no rule), rule by i % 4, agent by i % 3.
      expect(rules.slice(1, 5)).toEqual([
        ['allow-tests', '100', '0', '100', '100', '0', '300'],
        ['no-force-push', '100', '0', '100', '100', '0', '300'],
        ['ask-migrations', '100', '100', '0', '0', '0', '200'],
        ['no-env-writes', '100', '100', '0', '0', '0', '200'],
      ]);
      const agents = await rows('agents');
      expect(agents.slice(1, 4)).toEqual([
        ['(main)', '200', '0', '0', '200', '0', '400'],
        ['ba', '0', '200', '200', '0', '0', '400'],
        ['murdock', '200', '0', '0', '0', '200', '400'],
      ]);
      expect((await rows('denied-paths')).slice(1, 3)).toEqual([['.env', '300'], ['src/app.ts', '100']]);
      expect(await page.locator('#summary').innerText()).toMatch(/decisions\s+1,208[\s\S]*garbled lines\s+1/);
    });

    it('draws the timeline and fits the window: a long path wraps instead of widening the page', async () => {
      const box = await page.locator('#timeline svg rect.o-deny').first().boundingBox();
      expect(box!.height).toBeGreaterThan(0);
      expect(await page.locator('#timeline svg g').count()).toBe(48);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1200);
    });
  });
}
