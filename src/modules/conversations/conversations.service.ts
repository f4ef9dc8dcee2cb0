import { createHash } from 'node:crypto';
import type { AppDeps, Context } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import type { Page, PageRequest } from '../../lib/pagination/index.ts';
import { readUnlessChanged } from '../../db/read-cache.ts';
import { badRequest, notFound, payloadTooLarge } from '../../errors.ts';
import { isoNow } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { memberAccess } from '../../access/index.ts';
import {
  addEmbedding,
  addTerms,
  distinctiveTerms,
  excerpt,
  firstSentence,
  iconOf,
  Idf,
  labelOf,
  placeIssues,
  slicesOf,
  TermCounter,
  weekStart,
  weighted,
  type TermVector,
  type WordMap,
} from './conversations.analysis.ts';
import { requestConversationProcessing } from './conversations.job-kinds.ts';
import { chatJson, embed } from './conversations.model.ts';
import { conversationPolicy } from './conversations.policy.ts';
import {
  conversationsRepository as repo,
  type ClusterRow,
  type ClustersPage,
  type ConversationRow,
  type IssueRow,
  type IssueView,
} from './conversations.repository.ts';
import type { IngestConversationInput, ListClustersOptions } from './conversations.schemas.ts';

/** What background processing logs to (a request's logger, or the job runner's). */
export interface JobLogger {
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}
const silent: JobLogger = { warn: () => {}, error: () => {} };

/** The caller may read the organization's conversations: 404 outside it, 403 for guests. */
async function readAccess(ctx: Context, organizationId: string) {
  const access = await memberAccess(ctx, organizationId);
  conversationPolicy.authorize('view', access, 'Guests cannot read the organization’s conversations');
  return access;
}

/** Where a conversation comes from: attributes.source, else its URL's host, else "api". */
function sourceOf(metadata: IngestConversationInput['metadata']): string {
  const named = metadata?.attributes?.source?.trim();
  if (named) return named.slice(0, 200);
  if (metadata?.url) {
    try {
      const host = new URL(metadata.url).hostname;
      if (host) return host;
    } catch {
      // format: 'uri' admits URIs without a host; they name no source.
    }
  }
  return 'api';
}

/**
 * The per-conversation part of the ingest budget (the request's bytes are refused while the
 * body streams in, by the route's bodyLimit): 413 naming the field, before anything is stored.
 */
function checkIngestBudget(config: Context['config'], input: IngestConversationInput): void {
  const maxMessages = config.conversationsMaxMessages;
  if (input.parts.length > maxMessages) {
    throw payloadTooLarge(`body/parts: ${input.parts.length} messages, more than the ${maxMessages} a conversation may hold`);
  }
  const maxBytes = config.conversationsMaxMessageBytes;
  input.parts.forEach((part, i) => {
    // Characters are at most 4 bytes: only a long body needs counting.
    if (part.body.length * 4 <= maxBytes) return;
    const bytes = Buffer.byteLength(part.body);
    if (bytes > maxBytes) throw payloadTooLarge(`body/parts/${i}/body: ${bytes} bytes, more than the ${maxBytes} a message may hold`);
  });
}

/**
 * POST {O}/conversations: stores the conversation (replacing the one with the same id)
 * in one transaction, then asks for it to be processed. 204.
 */
export async function ingestConversation(ctx: Context, organizationId: string, input: IngestConversationInput): Promise<void> {
  checkIngestBudget(ctx.config, input);
  const createdAt = input.metadata?.createdAt ? new Date(input.metadata.createdAt) : undefined;
  if (createdAt && Number.isNaN(createdAt.getTime())) throw badRequest('body/metadata/createdAt must be a date-time');
  if (input.parts.every((part) => part.body.trim() === '')) throw badRequest('body/parts: every message body is empty');
  const subject = input.subject?.trim() ?? '';
  const parts = JSON.stringify(input.parts.map((p) => ({ type: p.type, role: p.role, body: p.body })));
  // sha256 of [subject, parts] as JSON, without writing the parts out a second time.
  const digest = createHash('sha256').update(`[${JSON.stringify(subject)},`).update(parts).update(']').digest('hex');
  // The request's work so far (parse, validation, the digest) ends here: other requests run
  // before the write (a large conversation is the largest request a tenant may send).
  await new Promise<void>((resolve) => setImmediate(resolve));
  await ctx.transaction(async (tctx) => {
    const access = await memberAccess(tctx, organizationId);
    conversationPolicy.authorize('ingest', access, 'Only members allowed to ingest conversations (admins) can ingest them');
    const now = isoNow(ctx.clock);
    await repo.upsert(tctx.db, {
      organization_id: organizationId,
      id: input.id,
      subject,
      source: sourceOf(input.metadata),
      metadata: JSON.stringify(input.metadata ?? {}),
      parts,
      digest,
      created_at: (createdAt ?? ctx.clock.now()).toISOString(),
      ingested_at: now,
      processed_at: null,
      processed_digest: null,
    });
    await requestConversationProcessing(tctx.db, organizationId, input.id);
  });
}

/** GET {O}/conversations */
export async function listConversations(ctx: Context, organizationId: string, filter: { source?: string }, page: PageRequest) {
  await readAccess(ctx, organizationId);
  return repo.listConversations(ctx.db, organizationId, filter, page);
}

/** GET {O}/conversations/{conversationId} */
export async function getConversation(ctx: Context, organizationId: string, conversationId: string): Promise<ConversationRow> {
  await readAccess(ctx, organizationId);
  const row = await repo.find(ctx.db, organizationId, conversationId);
  if (!row) throw notFound('Conversation');
  return row;
}

/** GET {O}/conversations-issues: 404 when the cluster or conversation filtered by does not exist. */
export async function listIssues(ctx: Context, organizationId: string, filter: { cluster?: string; conversation?: string }, page: PageRequest): Promise<Page<IssueView>> {
  await readAccess(ctx, organizationId);
  if (filter.cluster && !(await repo.clusterExists(ctx.db, organizationId, filter.cluster))) throw notFound('Issues cluster');
  if (filter.conversation && !(await repo.find(ctx.db, organizationId, filter.conversation))) throw notFound('Conversation');
  return repo.listIssues(ctx.db, organizationId, filter, page);
}

/** GET {O}/conversations-issues/{issueId} */
export async function getIssue(ctx: Context, organizationId: string, issueId: string): Promise<IssueView> {
  await readAccess(ctx, organizationId);
  const row = await repo.findIssue(ctx.db, organizationId, issueId);
  if (!row) throw notFound('Conversation issue');
  return row;
}

/**
 * GET {O}/conversations-clusters: a hot read, reused while the organization's conversations
 * are unchanged (and the week too); the route presents a reused page once (presentReused).
 */
export async function listClusters(ctx: Context, organizationId: string, options: ListClustersOptions, page: PageRequest): Promise<ClustersPage> {
  await readAccess(ctx, organizationId);
  const now = ctx.clock.now();
  const key = `clusters\u0000${organizationId}\u0000${options.sort}\u0000${options.order}\u0000${page.page ?? ''}\u0000${page.limit}\u0000${weekStart(now)}`;
  return readUnlessChanged(ctx.db, ctx.caches.listings, key, async (depend) => {
    depend(`conversations:${organizationId}`);
    return { ...(await repo.listClusters(ctx.db, organizationId, options, page)), now };
  });
}

/* ---------------------------------------------------------------- processing */

interface ExtractedIssue {
  title: string;
  summary: string;
  terms: TermVector;
  words: WordMap;
  embedding: number[] | null;
}

/**
 * How much of what was asked the offline analysis reads. A problem is stated in its first
 * paragraphs; what follows in a long conversation (pasted logs, transcripts) adds no
 * distinctive term but costs time on the event loop, which every tenant shares: tokenizing
 * and stemming a 9 MB text held it for seconds. 20,000 characters take a few milliseconds.
 */
export const ANALYZED_CHARS = 20_000;

/**
 * What the people asking wrote (the user messages, or every message when none is marked
 * so), its first ANALYZED_CHARS characters.
 */
function askedText(row: ConversationRow): string {
  const parts = JSON.parse(row.parts) as { role: string; body: string }[];
  const asked = parts.filter((p) => p.role === 'user' && p.body.trim());
  let text = '';
  for (const part of asked.length > 0 ? asked : parts) {
    const body = part.body.trim();
    if (!body) continue;
    text += (text ? '\n' : '') + body.slice(0, ANALYZED_CHARS - text.length);
    if (text.length >= ANALYZED_CHARS) break;
  }
  return text;
}

/** Characters analyzed between two turns of the event loop (a few milliseconds of work). */
const SLICE_CHARS = 2_000;

/** The terms of a text, a slice at a time, letting other requests run between slices. */
async function analyzeYielding(text: string): Promise<{ terms: TermVector; words: WordMap }> {
  const counter = new TermCounter();
  for (const slice of slicesOf(text, SLICE_CHARS)) {
    counter.add(slice);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return counter.result();
}

/** Offline extraction: one issue per conversation, titled by its subject or first question. */
async function extractOffline(row: ConversationRow): Promise<ExtractedIssue[]> {
  const asked = askedText(row);
  const { terms, words: wordMap } = await analyzeYielding(`${row.subject}\n${asked}`);
  // No meaningful word: no issue.
  if (Object.keys(terms).length === 0) return [];
  return [
    {
      title: excerpt(row.subject || firstSentence(asked), 120),
      summary: excerpt(asked, 400),
      terms,
      words: wordMap,
      embedding: null,
    },
  ];
}

const EXTRACT_PROMPT =
  'You read a support conversation between a reader of a product’s documentation (user) and support (assistant). ' +
  'List the documentation problems it reveals: what the reader could not find or understand in the docs. ' +
  'Answer only a JSON object {"issues":[{"title":"...","summary":"..."}]} with at most 3 issues; a title is a short ' +
  'phrase (under 100 characters), a summary one or two sentences. Answer {"issues":[]} when it reveals none.';

async function extractWithModel(deps: AppDeps, row: ConversationRow): Promise<ExtractedIssue[]> {
  const parts = JSON.parse(row.parts) as { role: string; body: string }[];
  const transcript = parts.map((p) => `${p.role}: ${p.body}`).join('\n\n').slice(0, 12_000);
  const answer = await chatJson(deps.config, EXTRACT_PROMPT, `Subject: ${row.subject}\n\n${transcript}`);
  if (!Array.isArray(answer.issues)) throw new Error('the chat model answered no "issues" array');
  const asked = askedText(row);
  const issues = (answer.issues as unknown[])
    .filter((i): i is { title: string; summary: string } => !!i && typeof (i as any).title === 'string' && typeof (i as any).summary === 'string')
    .filter((i) => i.title.trim() !== '')
    .slice(0, 3);
  const extracted: ExtractedIssue[] = [];
  for (const issue of issues) {
    // Terms still place issues when embeddings are off: a lone issue keeps the asked text's words.
    const { terms, words: wordMap } = await analyzeYielding(`${issue.title}\n${issue.summary}${issues.length === 1 ? `\n${asked}` : ''}`);
    extracted.push({ title: excerpt(issue.title.trim(), 120), summary: excerpt(issue.summary.trim(), 1000), terms, words: wordMap, embedding: null });
  }
  return extracted;
}

/**
 * Finds the documentation issues of one conversation and stores them (replacing those of
 * an earlier version; ids kept by position), then marks it processed. Idempotent: a
 * conversation already processed in its current version is left alone. Issues whose text
 * changed leave their cluster and wait to be placed again.
 */
export async function processConversation(deps: AppDeps, organizationId: string, conversationId: string, log: JobLogger = silent): Promise<void> {
  const row = await repo.find(deps.db, organizationId, conversationId);
  if (!row || row.processed_digest === row.digest) return;
  let issues: ExtractedIssue[] | undefined;
  if (deps.config.conversationsLlmUrl) {
    try {
      issues = await extractWithModel(deps, row);
    } catch (error) {
      log.warn({ err: String(error), conversationId }, 'conversation model failed; using the offline extraction');
    }
  }
  issues ??= await extractOffline(row);
  if (deps.config.conversationsEmbeddingsUrl && issues.length > 0) {
    try {
      const vectors = await embed(deps.config, issues.map((i) => `${i.title}\n${i.summary}`));
      issues.forEach((issue, i) => (issue.embedding = vectors[i]!));
    } catch (error) {
      log.warn({ err: String(error), conversationId }, 'embeddings model failed; placing by terms');
    }
  }
  const extracted = issues;
  await deps.db.transaction().execute(async (trx) => {
    const current = await repo.find(trx, organizationId, conversationId);
    // Ingested again meanwhile: that version gets processed next.
    if (!current || current.digest !== row.digest) return;
    const existing = await repo.issuesOfConversation(trx, organizationId, conversationId);
    const left = new Set<string>();
    for (const [position, issue] of extracted.entries()) {
      const fields = {
        title: issue.title,
        summary: issue.summary,
        created_at: current.created_at,
        terms: JSON.stringify(issue.terms),
        words: JSON.stringify(issue.words),
        embedding: issue.embedding ? JSON.stringify(issue.embedding) : null,
        cluster_id: null,
      };
      const before = existing[position];
      if (before) {
        if (before.cluster_id) left.add(before.cluster_id);
        await repo.updateIssue(trx, before.id, fields);
      } else {
        await repo.insertIssue(trx, {
          id: newId(),
          organization_id: organizationId,
          conversation_id: conversationId,
          position,
          ingested_at: current.ingested_at,
          ...fields,
        });
      }
    }
    const removed = existing.slice(extracted.length);
    for (const issue of removed) if (issue.cluster_id) left.add(issue.cluster_id);
    await repo.deleteIssues(trx, removed.map((i) => i.id));
    await repo.markProcessed(trx, organizationId, conversationId, row.digest, isoNow(deps.clock));
    if (left.size > 0) await refreshClusters(trx, deps, organizationId, [...left], await documentFrequencies(trx, organizationId));
  });
}

async function documentFrequencies(db: Db, organizationId: string): Promise<Idf> {
  const idf = new Idf();
  for (const row of await repo.allTerms(db, organizationId)) idf.add(JSON.parse(row.terms));
  return idf;
}

const parseEmbedding = (json: string | null): number[] | null => (json ? (JSON.parse(json) as number[]) : null);

/**
 * Places every issue not yet in a cluster (placeIssues: joins existing clusters, groups
 * the rest into new ones) and refreshes the clusters it touched, in one transaction; then,
 * with a chat model configured, names the clusters that grew. Safe to run twice: a second
 * run finds nothing pending.
 */
export async function clusterPendingIssues(deps: AppDeps, organizationId: string, log: JobLogger = silent): Promise<{ placed: number; created: number }> {
  const pendingRows = await repo.pendingIssues(deps.db, organizationId);
  if (pendingRows.length === 0) return { placed: 0, created: 0 };
  const idf = await documentFrequencies(deps.db, organizationId);
  const clusters = (await repo.centroids(deps.db, organizationId)).map((c) => ({
    id: c.id,
    terms: JSON.parse(c.centroid_terms) as TermVector,
    embedding: parseEmbedding(c.centroid_embedding),
  }));
  const pending = pendingRows.map((r) => ({ id: r.id, terms: JSON.parse(r.terms) as TermVector, embedding: parseEmbedding(r.embedding) }));
  const placement = placeIssues(pending, clusters, idf);

  const touched: string[] = [];
  await deps.db.transaction().execute(async (trx) => {
    const now = isoNow(deps.clock);
    const joined = new Map<string, string[]>();
    for (const [issueId, clusterId] of placement.joined) joined.set(clusterId, [...(joined.get(clusterId) ?? []), issueId]);
    for (const [clusterId, issueIds] of joined) {
      await repo.assign(trx, clusterId, issueIds);
      touched.push(clusterId);
    }
    for (const group of placement.created) {
      const id = newId();
      await repo.insertCluster(trx, {
        id,
        organization_id: organizationId,
        label: '',
        summary: '',
        icon: 'circle-question',
        created_at: now,
        updated_at: now,
        centroid_terms: '{}',
        centroid_embedding: null,
        words: '{}',
        issues: 0,
        conversations: 0,
        sources: '{}',
        weeks: '{}',
        labeled_issues: 0,
      });
      await repo.assign(trx, id, group);
      touched.push(id);
    }
    await refreshClusters(trx, deps, organizationId, touched, idf);
  });
  if (deps.config.conversationsLlmUrl) await labelWithModel(deps, organizationId, touched, log);
  return { placed: pending.length, created: placement.created.length };
}

/**
 * Recomputes what a cluster shows from its members: centroid, stats, sources, weeks, and
 * (unless a model named it) its label, summary and icon. An empty cluster is deleted and
 * change requests naming it name none.
 */
async function refreshClusters(db: Db, deps: AppDeps, organizationId: string, ids: string[], idf: Idf): Promise<void> {
  const now = isoNow(deps.clock);
  for (const id of ids) {
    const cluster = await repo.findCluster(db, organizationId, id);
    if (!cluster) continue;
    const members = await repo.members(db, id);
    if (members.length === 0) {
      await repo.deleteCluster(db, id);
      await repo.repointChangeRequests(db, id, null);
      continue;
    }
    const centroid: TermVector = {};
    let embedding: number[] | null = null;
    const forms = new Map<string, Map<string, number>>();
    const weeks: Record<string, number> = {};
    const conversationsBySource = new Map<string, Set<string>>();
    const conversations = new Set<string>();
    const vectors = members.map((m) => JSON.parse(m.terms) as TermVector);
    members.forEach((member, i) => {
      addTerms(centroid, vectors[i]!);
      const e = parseEmbedding(member.embedding);
      if (e) embedding = addEmbedding(embedding, e);
      for (const [s, word] of Object.entries(JSON.parse(member.words) as WordMap)) {
        const counts = forms.get(s) ?? new Map<string, number>();
        counts.set(word, (counts.get(word) ?? 0) + 1);
        forms.set(s, counts);
      }
      const week = weekStart(new Date(member.created_at));
      weeks[week] = (weeks[week] ?? 0) + 1;
      conversations.add(member.conversation_id);
      const set = conversationsBySource.get(member.source) ?? new Set<string>();
      set.add(member.conversation_id);
      conversationsBySource.set(member.source, set);
    });
    const wordMap: WordMap = {};
    for (const [s, counts] of forms) wordMap[s] = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
    const changes: Partial<ClusterRow> = {
      updated_at: now,
      centroid_terms: JSON.stringify(centroid),
      centroid_embedding: embedding ? JSON.stringify(embedding) : null,
      words: JSON.stringify(wordMap),
      issues: members.length,
      conversations: conversations.size,
      sources: JSON.stringify(Object.fromEntries([...conversationsBySource].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([s, set]) => [s, set.size]))),
      weeks: JSON.stringify(weeks),
      icon: iconOf(distinctiveTerms(centroid, idf, 5)),
    };
    if (cluster.labeled_issues === 0) {
      // The member nearest the centroid speaks for the cluster.
      const center = weighted(centroid, idf);
      let best = 0;
      let bestScore = -1;
      vectors.forEach((v, i) => {
        let score = 0;
        for (const [s, w] of weighted(v, idf)) score += w * (center.get(s) ?? 0);
        if (score > bestScore) {
          best = i;
          bestScore = score;
        }
      });
      const terms = distinctiveTerms(centroid, idf, 5).map((s) => wordMap[s] ?? s);
      changes.label = labelOf(centroid, wordMap, idf);
      changes.summary = `${members.length} ${members.length === 1 ? 'issue' : 'issues'} about ${terms.join(', ')}, such as: “${members[best]!.title}”`;
    }
    await repo.updateCluster(db, id, changes);
  }
}

const LABEL_PROMPT =
  'You are given the titles of documentation problems that readers raised in support conversations and that were ' +
  'grouped as one underlying problem. Answer only a JSON object {"label":"...","summary":"..."}: label names the ' +
  'problem in under 60 characters, summary says in one or two sentences what the documentation fails to answer.';

/** Names the clusters that are new or doubled in size since a model last named them. */
async function labelWithModel(deps: AppDeps, organizationId: string, ids: string[], log: JobLogger): Promise<void> {
  for (const id of ids) {
    const cluster = await repo.findCluster(deps.db, organizationId, id);
    if (!cluster || (cluster.labeled_issues > 0 && cluster.issues < cluster.labeled_issues * 2)) continue;
    const titles = (await repo.members(deps.db, id)).slice(0, 30).map((m) => `- ${m.title}`);
    try {
      const answer = await chatJson(deps.config, LABEL_PROMPT, titles.join('\n'));
      if (typeof answer.label !== 'string' || !answer.label.trim()) throw new Error('the chat model answered no label');
      await repo.updateCluster(deps.db, id, {
        label: excerpt(answer.label.trim(), 120),
        ...(typeof answer.summary === 'string' && answer.summary.trim() ? { summary: excerpt(answer.summary.trim(), 1000) } : {}),
        labeled_issues: cluster.issues,
      });
    } catch (error) {
      log.warn({ err: String(error), clusterId: id }, 'conversation model failed to label a cluster; keeping the offline label');
    }
  }
}

export type { IssueRow };
