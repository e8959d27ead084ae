/**
 * The report as one self-contained HTML page: inline CSS and SVG, no script, no external
 * resource, and a Content-Security-Policy that would stop either if one got in. Every
 * string from the log goes through escape.ts (the confined agent wrote or chose it).
 */
import { clip, escapeAttribute, escapeText, formatCount } from './escape';
import { OUTCOMES } from './log-record';
import { rowBar, stepName, timelineChart } from './svg';
import type { OutcomeCounts, Ranked, ReportData } from './aggregate';
import { REPORT_CSS } from './style';

/** The page's policy: nothing loads, nothing runs; inline styles and data: images only. */
export const REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/** The fail-open counter (engine/host/fail-open/) over the period, when the host could read it. */
export interface FailOpenCounts {
  /** Calls let through unjudged (on_error: open). */
  total: number;
  /** Calls stopped unjudged (on_error: closed), for comparison. */
  failClosed: number;
  /** Fail-opens by the first error's code, largest first. */
  byCode: { key: string; value: number }[];
  /** The latest fail-opens, newest first. */
  latest: { time: string; event: string | null; tool: string | null; code: string; message: string }[];
  /** What is wrong with a counter file (tampering: the count may be short). */
  problems: string[];
  /** How many counter files were read: none on a machine whose runner never failed open, or for another user. */
  files: number;
}

export interface RenderReportOptions {
  /** The project's name (its folder). */
  project: string;
  /** The log read, as the user named it or the policy did. */
  logFile: string;
  /** When the page was made (ISO). */
  generatedAt: string;
  sinceMs?: number;
  untilMs?: number;
  /** null: no counter to read (the page says so). */
  failOpen?: FailOpenCounts | null;
}

/** Table keys longer than this are cut on the page (the title attribute holds more). */
const SHOWN_MAX = 160;

/**
 * The page.
 * @example renderReport(aggregateReport(lines), { project: 'shop', logFile: '.claude/decisions.jsonl', generatedAt: '2026-01-16T08:00:00.000Z' })
 */
export function renderReport(data: ReportData, options: RenderReportOptions): string {
  const title = `hookpolicy report: ${options.project}`;
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">`,
    '<meta name="referrer" content="no-referrer"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light">',
    `<title>${escapeAttribute(title)}</title><style>${REPORT_CSS}</style></head><body>`,
    `<header><h1>Decisions in <span class="project">${escapeText(options.project)}</span></h1>${headerFacts(data, options)}</header>`,
    summary(data, options),
    section('timeline', 'Decisions over time', data.timeline ? `${legend()}${timelineChart(data.timeline)}<p class="note">Each bar covers ${stepName(data.timeline.stepMs)} (UTC); hover a bar for its counts.</p>` : empty()),
    section('agents', 'Per agent', outcomeTable(data.agents, 'agent', 'agents', 'decisions')),
    section('rules', 'Per rule', `<p class="note">A decision counts once for each rule it names.</p>${outcomeTable(data.rules, 'rule', 'rules', 'namings')}`),
    section('tools', 'Per tool', outcomeTable(data.tools, 'tool (or event)', 'tools', 'decisions')),
    section('denied-paths', 'Paths denied most often', countTable(data.deniedPaths, 'path', 'denials', 'paths')),
    section('denied-commands', 'Commands denied most often', countTable(data.deniedCommands, 'command', 'denials', 'commands')),
    section('errors', 'Fail-opens and errors', errors(data, options)),
    section('log-lines', 'The log', logLines(data, options)),
    `<footer>Made by <code>policy report</code> at ${escapeText(options.generatedAt)}. Times are UTC. Every name, path and command on this page comes from the log as written; hidden characters (controls, bidi overrides, zero-width marks) are shown as escapes such as <span class="esc">\\u202e</span>.</footer>`,
    '</body></html>',
    '',
  ].join('\n');
}

function headerFacts(data: ReportData, o: RenderReportOptions): string {
  const period = o.sinceMs !== undefined || o.untilMs !== undefined
    ? `${o.sinceMs !== undefined ? `from ${iso(o.sinceMs)}` : 'up'} ${o.untilMs !== undefined ? `to ${iso(o.untilMs)}` : 'to now'}`
    : 'the whole log';
  const span = data.first && data.last ? `; decisions from ${minute(data.first)} to ${minute(data.last)}` : '';
  return `<p class="facts">Log <code>${escapeText(o.logFile)}</code>, ${escapeText(period)}${escapeText(span)}.</p>`;
}

function summary(data: ReportData, o: RenderReportOptions): string {
  const cards = [
    card('decisions', data.decisions, ''),
    ...OUTCOMES.map((outcome) => card(outcome, data.outcomes[outcome], `o-${outcome}`)),
    card('with errors', data.errors.decisions, data.errors.decisions > 0 ? 'alert' : ''),
    card('failed open', data.errors.letThrough, data.errors.letThrough > 0 ? 'alert' : ''),
  ];
  if (o.failOpen) cards.push(card('fail-open counter', o.failOpen.total, o.failOpen.total > 0 ? 'alert' : ''));
  if (data.bypasses.decisions > 0) cards.push(card('bypassed', data.bypasses.decisions, 'alert'));
  if (data.garbled > 0) cards.push(card('garbled lines', data.garbled, 'alert'));
  return `<section id="summary"><dl class="cards">${cards.join('')}</dl></section>`;
}

function card(label: string, n: number, cls: string): string {
  return `<div class="card ${cls}"><dt>${label}</dt><dd>${formatCount(n)}</dd></div>`;
}

function legend(): string {
  return `<p class="legend">${OUTCOMES.map((o) => `<span><svg width="10" height="10" aria-hidden="true"><rect class="o-${o}" width="10" height="10"/></svg> ${o}</span>`).join('')}</p>`;
}

function outcomeTable(table: Ranked<OutcomeCounts>, name: string, plural: string, unit: string): string {
  if (table.rows.length === 0) return empty();
  const max = Math.max(...table.rows.map((r) => r.value.total));
  const head = `<tr><th>${name}</th>${OUTCOMES.map((o) => `<th class="n">${o}</th>`).join('')}<th class="n">total</th><th></th></tr>`;
  const rows = table.rows.map((r) => `<tr>${keyCell(r.key)}${OUTCOMES.map((o) => numCell(r.value[o])).join('')}${numCell(r.value.total)}<td>${rowBar(r.value, max)}</td></tr>`);
  return `<table>${head}${rows.join('')}${moreRow(table, plural, unit, OUTCOMES.length + 3)}</table>`;
}

function countTable(table: Ranked<number>, name: string, unit: string, plural: string): string {
  if (table.rows.length === 0) return empty('No denials in this period.');
  const head = `<tr><th>${name}</th><th class="n">${unit}</th></tr>`;
  const rows = table.rows.map((r) => `<tr>${keyCell(r.key)}${numCell(r.value)}</tr>`);
  return `<table>${head}${rows.join('')}${moreRow(table, plural, unit, 2)}</table>`;
}

function errors(data: ReportData, o: RenderReportOptions): string {
  const e = data.errors;
  const parts = [
    `<p>${formatCount(e.decisions)} ${e.decisions === 1 ? 'decision' : 'decisions'} logged with errors; ${formatCount(e.letThrough)} of them let the call through (outcome allow or none: the guard failed open)${e.unjudged > 0 ? `, ${formatCount(e.unjudged)} without judging the event at all (<code>fail_open</code>: no policy, a cache error, a malformed event)` : ''}.</p>`,
  ];
  if (o.failOpen) parts.push(failOpenCounter(o.failOpen));
  else if (o.failOpen === null) parts.push('<p class="note">No fail-open counter could be read for this project.</p>');
  if (e.decisions > 0) {
    parts.push(`<h3>By code</h3>${countTable(e.codes, 'code', 'errors', 'codes')}`);
    parts.push(`<h3>Most frequent</h3>${countTable(e.messages, 'error', 'times', 'errors')}`);
    const head = '<tr><th>time (UTC)</th><th>event</th><th>tool</th><th>agent</th><th>outcome</th><th>rules</th><th>first error</th></tr>';
    const rows = e.recent.map((r) => `<tr><td class="time">${escapeText(minute(r.time, true))}</td>${textCell(r.event)}${textCell(r.tool ?? '')}${textCell(r.agent ?? '(main)')}<td class="o-text-${r.outcome}">${r.outcome}${r.unjudged ? ' (fail-open)' : ''}</td>${textCell(r.rules.join(', '))}${textCell(r.message + (r.others > 0 ? ` (+${r.others} more)` : ''))}</tr>`);
    parts.push(`<h3>Latest</h3><table class="recent">${head}${rows.join('')}</table>`);
  }
  if (data.bypasses.decisions > 0) {
    parts.push(`<h3>Bypasses</h3><p>${formatCount(data.bypasses.decisions)} decisions were taken with a bypass variable set.</p>${countTable(data.bypasses.envs, 'variable', 'decisions', 'variables')}`);
  }
  return parts.join('');
}

function failOpenCounter(f: FailOpenCounts): string {
  const parts = [`<h3>Fail-open counter</h3><p>The runner answered ${formatCount(f.total)} ${f.total === 1 ? 'call' : 'calls'} without judging ${f.total === 1 ? 'it' : 'them'} and let ${f.total === 1 ? 'it' : 'them'} through (on_error: open); ${formatCount(f.failClosed)} more ${f.failClosed === 1 ? 'was' : 'were'} stopped unjudged (on_error: closed).</p>`];
  if (f.files === 0) parts.push('<p class="note">No counter file was found: it is kept per user, in the cache folder of the machine that ran the hooks, and made at the first fail-open.</p>');
  for (const problem of f.problems) parts.push(`<p class="alert">${escapeText(problem)}</p>`);
  if (f.byCode.length > 0) parts.push(countTable({ rows: f.byCode, more: { keys: 0, total: 0 } }, 'code', 'fail-opens', 'codes'));
  if (f.latest.length > 0) {
    const head = '<tr><th>time (UTC)</th><th>event</th><th>tool</th><th>code</th><th>message</th></tr>';
    const rows = f.latest.map((r) => `<tr><td class="time">${escapeText(minute(r.time, true))}</td>${textCell(r.event ?? '(unreadable event)')}${textCell(r.tool ?? '')}${textCell(r.code)}${textCell(r.message)}</tr>`);
    parts.push(`<table class="recent fail-opens">${head}${rows.join('')}</table>`);
  }
  return parts.join('');
}

function logLines(data: ReportData, o: RenderReportOptions): string {
  const items = [`<li>${formatCount(data.decisions)} decision records in the period</li>`];
  if (data.outside > 0) items.push(`<li>${formatCount(data.outside)} records outside it</li>`);
  items.push(`<li class="${data.garbled > 0 ? 'alert' : ''}">${formatCount(data.garbled)} garbled ${data.garbled === 1 ? 'line' : 'lines'} skipped (not JSON, or without a time or a known outcome)</li>`);
  return `<p>From <code>${escapeText(o.logFile)}</code>:</p><ul>${items.join('')}</ul>`;
}

function section(id: string, heading: string, body: string): string {
  return `<section id="${id}"><h2>${heading}</h2>${body}</section>`;
}

function keyCell(key: string): string {
  const shown = clip(key, SHOWN_MAX);
  const title = shown === key ? '' : ` title="${escapeAttribute(key)}"`;
  return `<td class="key"${title}><code>${escapeText(shown)}</code></td>`;
}

function textCell(text: string): string {
  const shown = clip(text, SHOWN_MAX);
  return `<td${shown === text ? '' : ` title="${escapeAttribute(text)}"`}>${escapeText(shown)}</td>`;
}

function numCell(n: number): string {
  return `<td class="n${n === 0 ? ' zero' : ''}">${formatCount(n)}</td>`;
}

function moreRow<T>(table: Ranked<T>, plural: string, unit: string, columns: number): string {
  if (table.more.keys === 0) return '';
  return `<tr class="more"><td colspan="${columns}">… and ${formatCount(table.more.keys)} more ${plural} (${formatCount(table.more.total)} ${unit})</td></tr>`;
}

function empty(text = 'No decisions in this period.'): string {
  return `<p class="empty">${text}</p>`;
}

function iso(ms: number): string {
  return Number.isFinite(ms) ? minute(new Date(ms).toISOString()) : String(ms);
}

/** `2026-01-14 09:15` (with seconds: `09:15:02`). */
function minute(isoTime: string, seconds = false): string {
  return `${isoTime.slice(0, 10)} ${isoTime.slice(11, seconds ? 19 : 16)}`;
}
