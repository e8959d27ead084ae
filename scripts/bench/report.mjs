// The bench's printed table and target checks.
import { round } from './stats.mjs';

function table(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
  const line = (r) => r.map((cell, c) => (c === 0 ? String(cell).padEnd(widths[c]) : String(cell).padStart(widths[c]))).join('  ');
  return [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

/** The command-mode table: one row per condition, ratios to the floor without extra CAs. */
export function processTable(results) {
  const floor = results.process.find((r) => r.id === 'floor').stats.median;
  const rows = [['process (sh -c, event on stdin)', 'median ms', 'p90 ms', 'min ms', 'x floor']];
  for (const r of results.process) {
    rows.push([r.label, round(r.stats.median, 1), round(r.stats.p90, 1), round(r.stats.min, 1), round(r.stats.median / floor, 2)]);
  }
  return table(rows);
}

export function otherTables(results) {
  const out = [];
  if (results.memory) {
    const rows = [['peak RSS (MiB, median)', 'MiB', 'x floor']];
    const floor = results.memory.find((m) => m.id === 'floor')?.mib;
    for (const m of results.memory) rows.push([m.label, round(m.mib, 1), floor ? round(m.mib / floor, 2) : '-']);
    out.push(table(rows));
  }
  if (results.inProcess) {
    const kinds = Object.keys(results.inProcess[0].engine.perKind);
    const rows = [['in-process (evaluate + render)', 'rules', 'file facts', 'events/s (mix)', ...kinds.map((k) => `${k}/s`)]];
    for (const r of results.inProcess) {
      for (const [mode, label] of [['engine', 'in memory'], ['disk', 'from disk']]) {
        rows.push([r.label, r.rules, label, Math.round(r[mode].eventsPerSecond), ...kinds.map((k) => Math.round(r[mode].perKind[k]))]);
      }
    }
    out.push(table(rows));
  }
  if (results.policyTest) {
    const t = results.policyTest;
    out.push(table([['policy test', 'cases', 'seconds', 'cases/s'], ['generated suites (shipped packs)', t.cases, round(t.seconds, 2), Math.round(t.casesPerSecond)]]));
  }
  if (results.daemon) {
    const rows = [['daemon (policy serve, loopback)', 'p50 ms', 'p99 ms', 'seq/s', `${results.daemon[0].inFlight} in flight/s`]];
    for (const d of results.daemon) rows.push([d.label, round(d.latency.median, 3), round(d.latency.p99, 3), Math.round(d.sequentialPerSecond), Math.round(d.parallelPerSecond)]);
    out.push(table(rows));
  }
  return out.join('\n\n');
}

/** Each target of the Speed issue, checked against this run's figures. */
export function targets(results) {
  const med = (id) => results.process.find((r) => r.id === id)?.stats.median;
  const floor = med('floor');
  const checks = [];
  const ratio = (ids, limit, what) => {
    const worst = Math.max(...ids.map((id) => med(id) / floor).filter(Number.isFinite));
    if (Number.isFinite(worst)) checks.push({ what, value: `${round(worst, 2)}x`, limit: `<= ${limit}x`, ok: worst <= limit });
  };
  const kinds = ['none', 'deny', 'require', 'context', 'redirect', 'heredoc', 'write'];
  ratio(kinds.map((k) => `packs/${k}`), 1.2, 'command mode, shipped packs (worst event), p50 vs floor');
  ratio(kinds.map((k) => `rules1000/${k}`), 1.4, 'command mode, 1,000 rules (worst event), p50 vs floor');
  ratio(kinds.flatMap((k) => [`packs/${k}+ca`, `rules1000/${k}+ca`]), 1.3, 'NODE_EXTRA_CA_CERTS set: installed command vs floor without it');
  ratio(['edit/packs'], 2.0, 'first event after a policy edit (compiles), p50 vs floor');
  ratio(['edit-lint/packs'], 2.0, 'first event after an edit saved through policy lint (no compile), p50 vs floor');
  // A recording event is an append: it must cost about what the same event costs when no rule records.
  const record = med('memory/record') / med('memory/quiet');
  if (Number.isFinite(record)) checks.push({ what: 'memory store: a recording PostToolUse vs one no rule records, p50', value: `${round(record, 2)}x`, limit: '<= 1.1x', ok: record <= 1.1 });
  ratio(['memory/summaries', 'memory/search'], 2.0, 'memory store: recall (SessionStart summaries, prompt search; worst), p50 vs floor');
  if (results.memory) {
    const floorMem = results.memory.find((m) => m.id === 'floor')?.mib;
    const worst = Math.max(...results.memory.filter((m) => m.id !== 'floor' && m.id !== 'memory/search').map((m) => m.mib / floorMem));
    checks.push({ what: 'peak RSS, runner vs floor (worst)', value: `${round(worst, 2)}x`, limit: '<= 1.3x', ok: worst <= 1.3 });
    // A reader of the memory store loads SQLite (better-sqlite3's addon and the database's pages).
    const recall = results.memory.find((m) => m.id === 'memory/search');
    if (recall) checks.push({ what: 'peak RSS, a memory search (SQLite loaded) vs floor', value: `${round(recall.mib / floorMem, 2)}x`, limit: '<= 1.5x', ok: recall.mib / floorMem <= 1.5 });
  }
  // The engine's own rate: file facts answered from memory (the disk's rate is in the table).
  for (const r of results.inProcess ?? []) {
    const limit = r.id === 'packs' ? 100000 : 10000;
    checks.push({ what: `in-process engine (file facts in memory), ${r.label}`, value: `${Math.round(r.engine.eventsPerSecond)}/s`, limit: `>= ${limit}/s`, ok: r.engine.eventsPerSecond >= limit });
  }
  if (results.policyTest) checks.push({ what: `policy test, ${results.policyTest.cases} cases`, value: `${round(results.policyTest.seconds, 2)} s`, limit: '< 5 s', ok: results.policyTest.seconds < 5 });
  for (const d of results.daemon ?? []) checks.push({ what: `daemon p50, ${d.label}`, value: `${round(d.latency.median, 3)} ms`, limit: '<= 1 ms', ok: d.latency.median <= 1 });
  return checks;
}

export function targetTable(checks) {
  return table([['target', 'measured', 'limit', ''], ...checks.map((c) => [c.what, c.value, c.limit, c.ok ? 'ok' : 'MISSED'])]);
}
