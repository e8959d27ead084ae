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
  if (results.sessions && !results.sessions.skipped) {
    const x = results.sessions;
    const rows = [['session server (8 sessions, as --ensure starts it)', 'p50 ms', 'p90 ms', 'p99 ms', 'decisions/s']];
    rows.push(['each session calling ~20 ms after its last answer', round(x.latency.median, 3), round(x.latency.p90, 3), round(x.latency.p99, 3), '-']);
    rows.push(['each calling at once again (saturated)', round(x.saturated.latency.median, 3), round(x.saturated.latency.p90, 3), round(x.saturated.latency.p99, 3), Math.round(x.saturated.perSecond)]);
    out.push(table(rows));
    out.push(table([['server CPU per event (threads included)', 'ms', 'wall ms'],
      ['a logged deny (shipped packs, decision log)', round(x.loggedDeny.cpuMs, 3), round(x.loggedDeny.wallMs, 3)],
      ['the same deny, its log recording no deny', round(x.unloggedDeny.cpuMs, 3), round(x.unloggedDeny.wallMs, 3)],
      ['what the decision log costs a deny (the difference)', round(x.logCostMs, 3), '-'],
      ['no rule matches', round(x.noMatch.cpuMs, 3), round(x.noMatch.wallMs, 3)]]));
  }
  if (results.daemon) {
    const rows = [['daemon (policy serve, loopback)', 'p50 ms', 'p99 ms', 'slowest kind', 'its p50 ms', 'seq/s', `${results.daemon[0].inFlight} in flight/s`]];
    for (const d of results.daemon) {
      const [kind, slowest] = slowestKind(d);
      rows.push([d.label, round(d.latency.median, 3), round(d.latency.p99, 3), kind, round(slowest, 3), Math.round(d.sequentialPerSecond), Math.round(d.parallelPerSecond)]);
    }
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

/** The event kind whose p50 was the highest in one project's daemon run, and that p50. */
function slowestKind(daemon) {
  const kinds = Object.entries(daemon.perKind ?? {});
  if (kinds.length === 0) return ['-', NaN];
  const [kind, stats] = kinds.reduce((a, b) => (b[1].median > a[1].median ? b : a));
  return [kind, stats.median];
}

/**
 * Issue 15's goals ("a hook nobody notices"), checked against this run's figures: stricter
 * than the targets above, and each naming its worst case. The real client's per-call cost
 * (goal 2) is `npm run bench:client`'s.
 */
export function issueGoals(results) {
  const med = (id) => results.process?.find((r) => r.id === id)?.stats.median;
  const label = (id) => results.process?.find((r) => r.id === id)?.label ?? id;
  const floor = med('floor');
  const checks = [];
  const worstRatio = (ids, limit, what) => {
    const rows = ids.map((id) => [id, med(id) / floor]).filter(([, x]) => Number.isFinite(x));
    if (rows.length === 0) return;
    const [id, worst] = rows.reduce((a, b) => (b[1] > a[1] ? b : a));
    checks.push({ what, value: `${round(worst, 2)}x (${label(id)})`, limit: `<= ${limit}x`, ok: worst <= limit });
  };
  const kinds = ['none', 'deny', 'require', 'context', 'redirect', 'heredoc', 'write'];
  const memoryKinds = ['record', 'quiet', 'summaries', 'search'];
  worstRatio([...kinds.map((k) => `packs/${k}`), ...memoryKinds.map((k) => `memory/${k}`)], 1.15, 'command mode, every event kind (shipped packs, memory store), p50 vs floor');
  worstRatio(kinds.map((k) => `rules1000/${k}`), 1.25, 'command mode, 1,000 rules (worst event), p50 vs floor');
  worstRatio(['edit-lint/packs'], 2.0, 'first event after a policy edit saved through policy lint, p50 vs floor');
  worstRatio(['edit/packs'], 2.0, 'first event after a policy edit by hand (the runner compiles), p50 vs floor');
  if (results.memory) {
    const floorMem = results.memory.find((m) => m.id === 'floor')?.mib;
    const rows = results.memory.filter((m) => m.id !== 'floor');
    if (floorMem && rows.length > 0) {
      const worst = rows.reduce((a, b) => (b.mib > a.mib ? b : a));
      checks.push({ what: 'peak RSS, every runner event (SQLite ones included) vs floor', value: `${round(worst.mib / floorMem, 2)}x (${worst.label})`, limit: '<= 1.1x', ok: worst.mib / floorMem <= 1.1 });
    }
  }
  for (const d of results.daemon ?? []) {
    const [kind, p50] = slowestKind(d);
    if (Number.isFinite(p50)) checks.push({ what: `daemon p50, every event kind, ${d.label}`, value: `${round(p50, 3)} ms (${kind})`, limit: '<= 1 ms', ok: p50 <= 1 });
  }
  const sessions = results.sessions && !results.sessions.skipped ? results.sessions : null;
  if (sessions) {
    checks.push({ what: 'session server, 8 sessions at work at once, p50', value: `${round(sessions.latency.median, 3)} ms`, limit: '<= 1 ms', ok: sessions.latency.median <= 1 });
    checks.push({ what: 'session server, 8 sessions at work at once, p99', value: `${round(sessions.latency.p99, 3)} ms`, limit: '<= 5 ms', ok: sessions.latency.p99 <= 5 });
    checks.push({ what: 'session server, CPU the decision log adds to a deny', value: `${round(sessions.logCostMs, 3)} ms (a logged deny: ${round(sessions.loggedDeny.cpuMs, 3)} ms in all)`, limit: '<= 0.3 ms', ok: sessions.logCostMs <= 0.3 });
  }
  const big = (results.inProcess ?? []).find((r) => r.id === 'rules1000');
  const write = big?.engine.perKind.write;
  if (Number.isFinite(write)) checks.push({ what: 'in-process, Write on 1,000 rules', value: `${Math.round(write)}/s`, limit: '>= 100000/s', ok: write >= 100000 });
  if (results.policyTest) checks.push({ what: `policy test, ${results.policyTest.cases} cases`, value: `${round(results.policyTest.seconds, 2)} s`, limit: '< 3 s', ok: results.policyTest.seconds < 3 });
  return checks;
}

export function targetTable(checks) {
  return table([['target', 'measured', 'limit', ''], ...checks.map((c) => [c.what, c.value, c.limit, c.ok ? 'ok' : 'MISSED'])]);
}
