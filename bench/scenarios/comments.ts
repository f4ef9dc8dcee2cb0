import { ManualClock, isoNow } from '../../src/lib/clock.ts';
import { newId } from '../../src/lib/ids.ts';
import { membersRepository } from '../../src/modules/members/members.repository.ts';
import { usersRepository } from '../../src/modules/users/users.repository.ts';
import { buildUserRow } from '../../src/modules/users/users.service.ts';
import { defineSuite } from '../harness.ts';
import { seedAdmin, seedSpace } from './content.ts';
import { markdownToDocument } from '../../src/content/markdown/index.ts';

/** A comment's or reply's body columns as the service stores them: the markdown, the document it reads as, no mentions. */
export const storedBody = (markdown: string) => ({ body: markdown, document: JSON.stringify(markdownToDocument(markdown)), mentions: '[]' });

export interface CommentsSeed {
  spaceId: string;
  token: string;
}

const COMMENTS = 5_000;
const AUTHORS = 20;
const EMOJIS = ['👍', '🎉', '❤️'];

/** One space of 100 pages holding 5,000 comments by 20 members, with replies and reactions. */
export const commentsSuite = defineSuite<CommentsSeed>({
  name: 'comments',
  description: `1 space of 100 pages with ${COMMENTS} comments (0 to 3 replies each, reactions by 0 to 3 members)`,
  seed: async (db) => {
    const clock = new ManualClock('2026-01-05T09:00:00.000Z');
    return db.transaction().execute(async (trx) => {
      const admin = await seedAdmin(trx, clock);
      const { spaceId, pageId } = await seedSpace(trx, admin.organizationId, admin.userId, clock, 10, 9);
      const space = await trx.selectFrom('spaces').select('revision_id').where('id', '=', spaceId).executeTakeFirstOrThrow();
      const authors: string[] = [admin.userId];
      for (let i = 1; i < AUTHORS; i++) {
        const user = buildUserRow(clock, { email: `member${i}@bench.quire.test`, displayName: `Member ${i}`, emailVerified: true });
        await usersRepository.insert(trx, user);
        await membersRepository.insert(trx, { organization_id: admin.organizationId, user_id: user.id, role: 'comment', disabled: 0, sso: 0, joined_at: isoNow(clock), last_seen_at: null });
        authors.push(user.id);
      }
      const comments = [];
      const replies = [];
      const reactions = [];
      for (let n = 0; n < COMMENTS; n++) {
        clock.advance(1000);
        const id = newId();
        const at = isoNow(clock);
        comments.push({
          id,
          space_id: spaceId,
          change_request_id: null,
          revision_id: space.revision_id as string,
          page_id: n % 2 === 0 ? pageId : null,
          node_id: null,
          table_record: null,
          table_definition: null,
          ...storedBody(`Comment ${n}: this **paragraph** needs a [source](https://example.com/${n}).`),
          posted_by: authors[n % AUTHORS],
          posted_at: at,
          edited_at: null,
          status: n % 5 === 0 ? ('resolved' as const) : ('open' as const),
          resolved_at: n % 5 === 0 ? at : null,
          resolved_by: n % 5 === 0 ? authors[(n + 1) % AUTHORS] : null,
        });
        for (let r = 0; r < n % 4; r++) {
          replies.push({ id: newId(), comment_id: id, space_id: spaceId, ...storedBody(`Reply ${r}.`), posted_by: authors[(n + r + 1) % AUTHORS], posted_at: at, edited_at: null });
        }
        for (let r = 0; r < n % 4; r++) {
          reactions.push({ comment_id: id, reply_id: '', emoji: EMOJIS[r % EMOJIS.length], user_id: authors[(n + r) % AUTHORS], reacted_at: at });
        }
      }
      for (let i = 0; i < comments.length; i += 200) await trx.insertInto('comments').values(comments.slice(i, i + 200)).execute();
      for (let i = 0; i < replies.length; i += 200) await trx.insertInto('comment_replies').values(replies.slice(i, i + 200)).execute();
      for (let i = 0; i < reactions.length; i += 200) await trx.insertInto('comment_reactions').values(reactions.slice(i, i + 200)).execute();
      return { spaceId, token: admin.token };
    });
  },
  scenarios: [
    {
      name: 'comments.list',
      title: `GET {S}/comments?limit=50 (${COMMENTS} comments with replies and reactions)`,
      target: 0.3,
      request: (seed) => ({ path: `/v1/spaces/${seed.spaceId}/comments?limit=50`, headers: { authorization: `Bearer ${seed.token}` } }),
    },
  ],
});
