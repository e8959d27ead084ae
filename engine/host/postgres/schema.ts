/**
 * The team database's schema as numbered migrations, applied in order, each once. Pure SQL
 * text: the shipper and `policy db migrate` run them (migrate.ts). A migration, once
 * released, is never edited: a change is a new migration with the next number.
 *
 * Tables are prefixed `hookpolicy_` so they can share a database (and a schema, chosen by
 * the URL's search_path) with anything else.
 */

export interface Migration {
  id: number;
  name: string;
  sql: string;
}

/** The text search configuration of memory records' tsvector and of searches. */
export const TEXT_SEARCH_CONFIG = 'english';

export const MIGRATIONS_TABLE = 'hookpolicy_migrations';

export const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS hookpolicy_migrations (
  id integer PRIMARY KEY,
  name text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;

export const MIGRATIONS: readonly Migration[] = [
  {
    id: 1,
    name: 'decisions and memory records',
    sql: `
CREATE TABLE hookpolicy_decisions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uid uuid NOT NULL UNIQUE,
  time timestamptz NOT NULL,
  session_id text,
  event text NOT NULL,
  tool text,
  agent text,
  outcome text NOT NULL,
  rules text[] NOT NULL,
  reason text,
  paths text[] NOT NULL,
  duration_ms double precision,
  errors integer NOT NULL DEFAULT 0,
  record jsonb NOT NULL,
  project text NOT NULL,
  project_dir text NOT NULL,
  host text NOT NULL,
  user_name text NOT NULL,
  shipped_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX hookpolicy_decisions_project_time ON hookpolicy_decisions (project, time);
CREATE INDEX hookpolicy_decisions_time ON hookpolicy_decisions (time);
CREATE INDEX hookpolicy_decisions_outcome ON hookpolicy_decisions (outcome, time);

CREATE TABLE hookpolicy_memory (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uid uuid NOT NULL UNIQUE,
  at timestamptz NOT NULL,
  session text,
  agent text,
  event text NOT NULL,
  rule text NOT NULL,
  kind text NOT NULL,
  importance double precision NOT NULL,
  text text NOT NULL,
  fields jsonb NOT NULL,
  project text NOT NULL,
  project_dir text NOT NULL,
  host text NOT NULL,
  user_name text NOT NULL,
  shipped_at timestamptz NOT NULL DEFAULT now(),
  search tsvector GENERATED ALWAYS AS (to_tsvector('${TEXT_SEARCH_CONFIG}'::regconfig, text)) STORED
);
CREATE INDEX hookpolicy_memory_search ON hookpolicy_memory USING GIN (search);
CREATE INDEX hookpolicy_memory_project_at ON hookpolicy_memory (project, at);
CREATE INDEX hookpolicy_memory_kind ON hookpolicy_memory (kind, session);
`,
  },
];

/**
 * The rows of a batch, from one jsonb parameter (an array of objects): nothing of a
 * record's text is ever part of the SQL. A row whose uid is already there is left alone,
 * so a batch sent again after a lost answer inserts nothing twice.
 */
export const INSERT_DECISIONS = `
INSERT INTO hookpolicy_decisions
  (uid, time, session_id, event, tool, agent, outcome, rules, reason, paths, duration_ms, errors, record, project, project_dir, host, user_name)
SELECT x.uid, x.time, x.session_id, x.event, x.tool, x.agent, x.outcome,
  ARRAY(SELECT jsonb_array_elements_text(x.rules)), x.reason, ARRAY(SELECT jsonb_array_elements_text(x.paths)),
  x.duration_ms, x.errors, x.record, x.project, x.project_dir, x.host, x.user_name
FROM jsonb_to_recordset($1::jsonb) AS x(
  uid uuid, time timestamptz, session_id text, event text, tool text, agent text, outcome text, rules jsonb,
  reason text, paths jsonb, duration_ms double precision, errors integer, record jsonb,
  project text, project_dir text, host text, user_name text)
ON CONFLICT DO NOTHING`;

export const INSERT_MEMORY = `
INSERT INTO hookpolicy_memory
  (uid, at, session, agent, event, rule, kind, importance, text, fields, project, project_dir, host, user_name)
SELECT x.uid, x.at, x.session, x.agent, x.event, x.rule, x.kind, x.importance, x.text, x.fields,
  x.project, x.project_dir, x.host, x.user_name
FROM jsonb_to_recordset($1::jsonb) AS x(
  uid uuid, at timestamptz, session text, agent text, event text, rule text, kind text, importance double precision,
  text text, fields jsonb, project text, project_dir text, host text, user_name text)
ON CONFLICT DO NOTHING`;

/**
 * Memory records matching a web-search query ($1: words, "a phrase", or, -word), best
 * first by ts_rank normalized to 0..1 (rank / (rank + 1)); $2: a project, or null for the
 * whole team; $3: at most this many.
 */
export const SEARCH_MEMORY = `
SELECT m.id, m.at, m.session, m.agent, m.event, m.rule, m.kind, m.importance, m.text, m.fields,
  m.project, m.host, m.user_name, ts_rank(m.search, q, 32) AS relevance
FROM hookpolicy_memory m, websearch_to_tsquery('${TEXT_SEARCH_CONFIG}'::regconfig, $1) AS q
WHERE m.search @@ q AND ($2::text IS NULL OR m.project = $2)
ORDER BY relevance DESC, m.at DESC, m.id DESC
LIMIT $3`;
