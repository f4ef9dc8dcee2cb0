import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createMember, createOrganization, createSpace, type TestUser } from '../../../test/factories.ts';

/*
 * A comment's body is read once, when it is written: off the request thread past the inline
 * allowance, under the reading budget (page-reader.ts), and stored as a document beside its
 * markdown, so that no list of comments reads it again (a 64 KB body costly to read took
 * seconds of the request thread on every list). SQLite, and PostgreSQL when DATABASE_URL is set.
 */

/** Comment markdown of about `bytes` bytes: paragraphs, a list, code, a link. */
function longComment(bytes: number): string {
  const parts: string[] = [];
  for (let i = 0; parts.join('').length < bytes; i++) parts.push(`Point ${i}: **check** \`flag-${i}\` in [the docs](https://example.com/${i}).\n\n* first\n* second\n\n`);
  return parts.join('').trimEnd() + '\n';
}

/** Cheap to send, costly to read: every line opens a block and none closes (60 KB, under the 64 KB a body may hold). */
const HOSTILE = '{% hint style="info" %}\n'.repeat(2500);

describe('comment bodies read when written', () => {
  let t: TestApp;
  let tight: TestApp;
  let commenter: TestUser;
  let reader: TestUser;
  let tightCommenter: TestUser;
  let comments: string;
  let tightComments: string;

  beforeAll(async () => {
    t = await createTestApp({ markdownReader: { threads: 1, budgetMs: 60_000, inlineBytes: 2048 } });
    const org = await createOrganization(t, { title: 'Acme' });
    commenter = await createMember(t, org.id, 'comment');
    reader = await createMember(t, org.id, 'read');
    comments = `/v1/spaces/${(await createSpace(t, { organization: org })).id}/comments`;
    tight = await createTestApp({ markdownReader: { threads: 1, budgetMs: 100, inlineBytes: 2048 } });
    const tightOrg = await createOrganization(tight, { title: 'Tight' });
    tightCommenter = await createMember(tight, tightOrg.id, 'comment');
    tightComments = `/v1/spaces/${(await createSpace(tight, { organization: tightOrg })).id}/comments`;
  });
  afterAll(async () => {
    await t.close();
    await tight.close();
  });

  it('stores the document a body reads as (read on a thread past the allowance) and presents it in every format and list', async () => {
    const markdown = longComment(10_000);
    const posted = await t.request('POST', comments, { token: commenter.token, body: { body: { markdown } }, query: { format: 'document' } });
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    const document = posted.body.body.document;
    expect(document.nodes.length).toBeGreaterThan(100);
    const row = await t.db.selectFrom('comments').select(['body', 'document']).where('id', '=', posted.body.id).executeTakeFirstOrThrow();
    expect(row.body).toBe(markdown);
    expect(JSON.parse(row.document!)).toEqual(document);
    const listed = await t.request('GET', comments, { token: reader.token, query: { format: 'document' } });
    expect(listed.body.items.map((c: any) => c.body.document)).toEqual([document]);
    const asMarkdown = await t.request('GET', `${comments}/${posted.body.id}`, { token: reader.token, query: { format: 'markdown' } });
    expect(asMarkdown.body.body).toEqual({ markdown });

    // A reply and an edit store theirs too.
    const reply = await t.request('POST', `${comments}/${posted.body.id}/replies`, { token: commenter.token, body: { body: { markdown: longComment(3000) } } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const edited = await t.request('PUT', `${comments}/${posted.body.id}`, { token: commenter.token, body: { body: { markdown: 'Now **short**.' } }, query: { format: 'document' } });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const stored = await t.db.selectFrom('comments').select('document').where('id', '=', posted.body.id).executeTakeFirstOrThrow();
    expect(JSON.parse(stored.document!)).toEqual(edited.body.body.document);
    const replyRow = await t.db.selectFrom('comment_replies').select('document').where('id', '=', reply.body.id).executeTakeFirstOrThrow();
    expect(replyRow.document).not.toBeNull();
  });

  it('a body costlier to read than the budget is a 413 naming it, and nothing is stored', async () => {
    const res = await tight.request('POST', tightComments, { token: tightCommenter.token, body: { body: { markdown: HOSTILE } } });
    expect(res.status, JSON.stringify(res.body)).toBe(413);
    expect(res.body.error.message).toMatch(/^body\/body: reading this markdown takes more than/);
    const listed = await tight.request('GET', tightComments, { token: tightCommenter.token });
    expect(listed.body.items).toEqual([]);
  });

  it('a member who may not comment is refused before anything is read', async () => {
    const res = await t.request('POST', comments, { token: reader.token, body: { body: { markdown: HOSTILE } } });
    expect(res.status).toBe(403);
  });
});
