/**
 * The report's charts as inline SVG (no script, no external resource): the stacked bars
 * of decisions over time and the small bar beside each table row. Colours come from the
 * page's stylesheet through the `o-<outcome>` classes. Every text goes through escape.ts.
 */
import { escapeText, formatCount } from './escape';
import { OUTCOMES } from './log-record';
import type { OutcomeCounts } from './aggregate';
import type { Timeline } from './timeline';

const WIDTH = 960;
const HEIGHT = 260;
const LEFT = 56;
const RIGHT = 12;
const TOP = 12;
const BOTTOM = 36;
const DAY = 86_400_000;

/**
 * Decisions over time: one stacked bar per bucket (deny at the bottom), a tooltip with
 * the bucket's counts, a y axis from 0 to a round maximum and at most eight time labels.
 * @example timelineChart({ startMs: 0, stepMs: 60_000, buckets: [...] }) // '<svg ...>...</svg>'
 */
export function timelineChart(t: Timeline): string {
  const plotW = WIDTH - LEFT - RIGHT;
  const plotH = HEIGHT - TOP - BOTTOM;
  const n = t.buckets.length;
  const max = roundUp(Math.max(1, ...t.buckets.map((b) => b.total)));
  const slot = plotW / n;
  const gap = Math.min(2, slot * 0.15);
  const y = (v: number) => TOP + plotH - (v / max) * plotH;
  const parts: string[] = [];
  for (const v of [0, max / 2, max].filter(Number.isInteger)) {
    parts.push(`<line class="grid" x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${num(y(v))}" y2="${num(y(v))}"/>`);
    parts.push(`<text class="axis" x="${LEFT - 6}" y="${num(y(v) + 4)}" text-anchor="end">${formatCount(v)}</text>`);
  }
  const labelEvery = Math.ceil(n / 8);
  t.buckets.forEach((b, i) => {
    const x = LEFT + i * slot + gap / 2;
    const start = t.startMs + i * t.stepMs;
    const label = bucketLabel(start, t.stepMs);
    const tip = `${label} UTC: ${formatCount(b.total)} decisions${OUTCOMES.filter((o) => b[o] > 0).map((o) => `, ${formatCount(b[o])} ${o}`).join('')}`;
    let base = 0;
    const rects = OUTCOMES.filter((o) => b[o] > 0).map((o) => {
      const r = `<rect class="o-${o}" x="${num(x)}" y="${num(y(base + b[o]))}" width="${num(slot - gap)}" height="${num(y(base) - y(base + b[o]))}"/>`;
      base += b[o];
      return r;
    });
    // A transparent full-height rect carries the tooltip for buckets too small to hover.
    parts.push(`<g><title>${escapeText(tip)}</title><rect class="hit" x="${num(x)}" y="${TOP}" width="${num(slot - gap)}" height="${plotH}"/>${rects.join('')}</g>`);
    if (i % labelEvery === 0) parts.push(`<text class="axis" x="${num(x)}" y="${HEIGHT - BOTTOM + 16}">${escapeText(label)}</text>`);
  });
  const caption = `Decisions by outcome, in bars of ${stepName(t.stepMs)}`;
  return `<svg class="timeline" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="${caption}">${parts.join('')}</svg>`;
}

/**
 * The small horizontal bar of a table row: its counts stacked by outcome, scaled to `max`.
 * @example rowBar({ deny: 2, ask: 0, block: 0, allow: 1, none: 0, total: 3 }, 3) // '<svg ...>'
 */
export function rowBar(c: OutcomeCounts, max: number): string {
  const width = 160;
  let x = 0;
  const rects = OUTCOMES.filter((o) => c[o] > 0).map((o) => {
    const w = (c[o] / Math.max(1, max)) * width;
    const r = `<rect class="o-${o}" x="${num(x)}" y="0" width="${num(w)}" height="12"/>`;
    x += w;
    return r;
  });
  return `<svg class="bar" viewBox="0 0 ${width} 12" width="${width}" height="12" aria-hidden="true">${rects.join('')}</svg>`;
}

/**
 * A bucket's start as its chart label: the date alone for a step of a day or more.
 * @example bucketLabel(Date.parse('2026-01-14T09:15:00Z'), 300_000) // '01-14 09:15'
 */
export function bucketLabel(startMs: number, stepMs: number): string {
  // A bucket aligned before the earliest date a Date can hold (a record planted at -271821-04-20).
  if (!(Math.abs(startMs) <= 8.64e15)) return `${Math.round(startMs / 86_400_000)} days from 1970`;
  const iso = new Date(startMs).toISOString();
  return stepMs >= DAY ? iso.slice(0, 10) : `${iso.slice(5, 10)} ${iso.slice(11, 16)}`;
}

/**
 * The step in words.
 * @example stepName(3_600_000) // '1 hour'
 */
export function stepName(stepMs: number): string {
  const names: [number, string][] = [[365 * DAY, 'year'], [7 * DAY, 'week'], [DAY, 'day'], [3_600_000, 'hour'], [60_000, 'minute']];
  for (const [ms, name] of names) {
    if (stepMs % ms === 0) return `${stepMs / ms} ${name}${stepMs === ms ? '' : 's'}`;
  }
  return `${stepMs} ms`;
}

/** 1, 2 or 5 times a power of ten, at least `v`. */
function roundUp(v: number): number {
  const p = 10 ** Math.floor(Math.log10(v));
  return [1, 2, 5, 10].map((m) => m * p).find((c) => c >= v) ?? 10 * p;
}

function num(v: number): string {
  return String(Math.round(v * 10) / 10);
}
