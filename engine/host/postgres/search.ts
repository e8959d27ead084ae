/**
 * Memory search in the team database: PostgreSQL's full-text search over the records'
 * generated tsvector (websearch_to_tsquery, ts_rank), scoped to one project unless the
 * whole team is asked. The CLI's path; the runner's lets read the local index.
 */
import type { Client } from 'pg';
import type { MemoryRecord } from '../../types';
import { SEARCH_MEMORY } from './schema';

/** A found record with its relevance (0..1) and where it came from. */
export interface TeamSearchResult {
  record: MemoryRecord;
  relevance: number;
  project: string;
  host: string;
  user: string;
}

export interface TeamSearchOptions {
  /** One project's records (its name in the database); null: the whole team's. */
  project: string | null;
  limit: number;
}

/** A record row as PostgreSQL returns it: a bigint id as text, the time as a Date, fields as jsonb. */
interface Row extends Omit<MemoryRecord, 'id' | 'at'> {
  id: string;
  at: Date;
  project: string;
  host: string;
  user_name: string;
  relevance: number;
}

/**
 * The records matching `query` (web-search syntax: words, "a phrase", or, -word), best first.
 * @example await searchTeamMemory(client, 'jwt middleware', { project: 'shop', limit: 10 })
 */
export async function searchTeamMemory(client: Client, query: string, options: TeamSearchOptions): Promise<TeamSearchResult[]> {
  const { rows } = await client.query<Row>(SEARCH_MEMORY, [query, options.project, options.limit]);
  return rows.map((r) => ({
    record: {
      id: Number(r.id), at: r.at.toISOString(), session: r.session, agent: r.agent, event: r.event, rule: r.rule,
      kind: r.kind, importance: r.importance, text: r.text, fields: r.fields,
    },
    relevance: Math.max(0.01, Math.round(r.relevance * 100) / 100),
    project: r.project,
    host: r.host,
    user: r.user_name,
  }));
}
