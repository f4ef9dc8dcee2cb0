/*
 * Row types of what runs beside the API: the job queue, PDF exports, the database file store, the
 * search index.
 * Conventions and the table map: ../types.ts.
 */

import type { Generated } from 'kysely';

export type JobState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

/** A background job (migration 0011; src/jobs/queue.ts). */
export interface JobsTable {
  id: Generated<number>;
  kind: string;
  /** JSON. */
  payload: string;
  state: JobState;
  /** Jobs with the same lane key run one at a time, in id order. */
  lane_key: string | null;
  /** At most one queued or running job has a given dedupe key. */
  dedupe_key: string | null;
  /** How many times a worker started it. */
  attempts: number;
  max_attempts: number;
  /** Not claimed before this time (a retry's backoff). */
  run_at: string;
  locked_by: string | null;
  /** Names one claim: a worker whose lease was taken over finishes nothing. */
  lock_token: string | null;
  locked_until: string | null;
  last_error: string | null;
  /** JSON of what the handler returned, when done. */
  result: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** One recurring job's period, claimed by the one process that runs it. */
export interface JobPeriodsTable {
  name: string;
  period: number;
  claimed_by: string;
  claimed_at: string;
}

export interface PdfExportsTable {
  /** The random 256-bit id of the download URL. */
  id: string;
  space_id: string;
  revision_id: string;
  /** '' (every page), 'page:<id>' (a page and its subpages) or 'only:<id>'. */
  selection: string;
  file_name: string;
  size: number;
  created_at: string;
  expires_at: string;
  /** The export's bytes in the file store (area `exports`); null for exports made before 0012. */
  file_hash: string | null;
}

/** A file kept in the database (FILE_STORE=database): one row per file, bytes in file_chunks. */
export interface FileObjectsTable {
  area: string;
  hash: string;
  size: number | string;
  created_at: string;
}

export interface FileChunksTable {
  key: string;
  seq: number;
  data: Buffer;
}

/** One heading section of a page in the full-text index (migration 0008). */
export interface SearchSectionsTable {
  id: Generated<number>;
  space_id: string;
  page_id: string;
  position: number;
  /** The heading's anchor; '' for the text before the first heading. */
  section_id: string;
  page_title: string;
  section_title: string;
  body: string;
  /** The revision this row was written from. */
  revision_id: string;
}

/** Which revision of a space the full-text index reflects. */
export interface SearchIndexStateTable {
  space_id: string;
  revision_id: string;
  updated_at: string;
}

/**
 * SQLite only (migrations 0008, 0010): the index of one page. `body` is its sections laid
 * end to end (`title\nbody\n` each); `outline` a JSON array of `[sectionId, titleLength,
 * bodyLength]`, one per section in order, to cut it back into sections.
 */
export interface SearchPagesTable {
  id: Generated<number>;
  space_id: string;
  page_id: string;
  page_title: string;
  body: string;
  outline: string;
  /** The revision this row was written from. */
  revision_id: string;
}

/**
 * PostgreSQL only (migration 0015): one page's stored tsvector (`english`: title A,
 * headings B, text D) and its title's, each with a GIN index; its sections' text stays in
 * search_sections.
 */
export interface SearchPageVectorsTable {
  space_id: string;
  page_id: string;
  /** The revision this row was written from. */
  revision_id: string;
  /** Written by SQL only (searchRepository); read only inside queries. */
  tsv: string;
  /** The title's tsvector alone (GIN index): which pages' titles match. */
  title_tsv: string;
}
