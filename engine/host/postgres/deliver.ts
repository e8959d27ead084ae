/**
 * The shipper's delivery: a batch of outbox items into the team database, in one
 * transaction, each row keyed by the item's id (ON CONFLICT DO NOTHING), so a batch tried
 * again after a lost answer inserts nothing twice. The connection is opened at the first
 * batch (migrating the schema first) and kept; a connection that fails is dropped and the
 * batch is tried again later by the outbox. An item no retry can fix (not an item, a value
 * the database refuses) is set aside, so one bad record never holds the others back.
 */
import type { Client } from 'pg';
import type { Delivery } from '../outbox';
import { connectPostgres, describeError, sqlStateOf, type ConnectOptions } from './connect';
import { ensureSchema } from './migrate';
import { INSERT_DECISIONS, INSERT_MEMORY } from './schema';
import type { ShipItem } from './ship';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An outbox text as an item, or null when it is not one (then it is set aside). Strings
 * are made storable: PostgreSQL's text and jsonb hold no NUL character and no lone UTF-16
 * surrogate, and an agent can put either in a command.
 * @example parseItem('{"v":1,"type":"memory",...}')?.type // 'memory'
 */
export function parseItem(text: string): ShipItem | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(v) || v.v !== 1 || (v.type !== 'decision' && v.type !== 'memory')) return null;
  if (typeof v.id !== 'string' || !UUID.test(v.id) || !isObject(v.record) || !isObject(v.origin)) return null;
  const o = v.origin;
  if (!['project', 'project_dir', 'host', 'user'].every((k) => typeof o[k] === 'string')) return null;
  const r = v.record;
  const str = (k: string) => typeof r[k] === 'string';
  const strOrNull = (k: string) => r[k] === null || r[k] === undefined || typeof r[k] === 'string';
  if (v.type === 'decision') {
    if (!str('time') || !str('event') || !str('outcome') || !strOrNull('tool') || !strOrNull('agent') || !strOrNull('session_id') || !strOrNull('reason')) return null;
    if (!Array.isArray(r.rules) || !Array.isArray(r.paths)) return null;
  } else {
    if (!str('at') || !str('event') || !str('rule') || !str('kind') || !str('text') || !strOrNull('session') || !strOrNull('agent')) return null;
    if (typeof r.importance !== 'number' || !Number.isFinite(r.importance) || !isObject(r.fields)) return null;
  }
  return storable(v) as ShipItem;
}

/** The row of one item, as the insert's jsonb_to_recordset reads it. */
export function rowOf(item: ShipItem): Record<string, unknown> {
  const origin = { project: item.origin.project, project_dir: item.origin.project_dir, host: item.origin.host, user_name: item.origin.user };
  if (item.type === 'memory') {
    const r = item.record;
    return { uid: item.id, at: r.at, session: r.session ?? null, agent: r.agent ?? null, event: r.event, rule: r.rule, kind: r.kind, importance: r.importance, text: r.text, fields: r.fields, ...origin };
  }
  const r = item.record;
  return {
    uid: item.id, time: r.time, session_id: r.session_id ?? null, event: r.event, tool: r.tool ?? null, agent: r.agent ?? null, outcome: r.outcome,
    rules: r.rules, reason: r.reason ?? null, paths: r.paths, duration_ms: typeof r.duration_ms === 'number' ? r.duration_ms : null,
    errors: Array.isArray(r.errors) ? r.errors.length : 0, record: r, ...origin,
  };
}

/**
 * Inserts the items in one transaction (the caller's client, already migrated).
 * @example await insertItems(client, [item]) // one row in hookpolicy_memory
 */
export async function insertItems(client: Client, items: readonly ShipItem[]): Promise<void> {
  const decisions = items.filter((i) => i.type === 'decision').map(rowOf);
  const memory = items.filter((i) => i.type === 'memory').map(rowOf);
  await client.query('BEGIN');
  try {
    if (decisions.length > 0) await client.query(INSERT_DECISIONS, [JSON.stringify(decisions)]);
    if (memory.length > 0) await client.query(INSERT_MEMORY, [JSON.stringify(memory)]);
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}

/** What the shipper last saw, for `policy db status`. */
export interface ShipperState {
  at: string;
  ok: boolean;
  error?: string;
}

export interface PostgresDeliverOptions extends ConnectOptions {
  /** Told after each batch: ok, or the error that sent it back to the outbox. */
  onState?: (state: ShipperState) => void;
}

/**
 * The outbox's deliver function for the database at `url`, and a close for the end.
 * @example const { deliver, close } = postgresDeliver(url); await drainOutbox(folder, deliver); await close()
 */
export function postgresDeliver(url: string, options: PostgresDeliverOptions = {}): { deliver: (texts: string[]) => Promise<Delivery[]>; close: () => Promise<void> } {
  let client: Client | null = null;
  const report = (ok: boolean, error?: string) => options.onState?.({ at: new Date().toISOString(), ok, ...(error ? { error } : {}) });
  const drop = async () => {
    const c = client;
    client = null;
    await c?.end().catch(() => undefined);
  };
  const deliver = async (texts: string[]): Promise<Delivery[]> => {
    const items = texts.map(parseItem);
    const good = items.filter((i): i is ShipItem => i !== null);
    const answer = (delivered: Delivery): Delivery[] => items.map((i) => (i === null ? 'rejected' : delivered));
    if (good.length === 0) return answer('sent');
    try {
      if (!client) {
        client = await connectPostgres(url, options);
        // The first connection brings the schema up to date (under the advisory lock) when it lacks a migration.
        await ensureSchema(client);
      }
      await insertItems(client, good);
      report(true);
      return answer('sent');
    } catch (e) {
      if (client && isDataError(e)) return itemByItem(client, items, report);
      report(false, describeError(e));
      await drop();
      return answer('retry');
    }
  };
  return { deliver, close: drop };
}

/** After a batch the database refused for its data: each item alone, the refused ones set aside. */
async function itemByItem(client: Client, items: ReadonlyArray<ShipItem | null>, report: (ok: boolean, error?: string) => void): Promise<Delivery[]> {
  const out: Delivery[] = [];
  for (const item of items) {
    if (item === null) {
      out.push('rejected');
      continue;
    }
    try {
      await insertItems(client, [item]);
      out.push('sent');
    } catch (e) {
      if (!isDataError(e)) {
        report(false, describeError(e));
        out.push('retry');
        continue;
      }
      report(false, `record ${item.id} refused, set aside: ${describeError(e)}`);
      out.push('rejected');
    }
  }
  return out;
}

/** SQLSTATE class 22 (data exception) or 23 (integrity): the same rows would fail again. */
function isDataError(e: unknown): boolean {
  const state = sqlStateOf(e);
  return state !== undefined && (state.startsWith('22') || state.startsWith('23'));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Every string of a JSON value with NUL and lone surrogates replaced by U+FFFD. */
function storable(v: unknown): unknown {
  if (typeof v === 'string') return v.replace(/\0/g, '\uFFFD').replace(LONE_SURROGATE, '\uFFFD');
  if (Array.isArray(v)) return v.map(storable);
  if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [storable(k) as string, storable(x)]));
  return v;
}
