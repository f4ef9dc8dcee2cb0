import WebSocket from 'ws';
import type { NewPage } from '../src/content/store/editor.ts';
import { editSpaceContent } from '../src/modules/content/content.service.ts';
import { startSession } from '../src/modules/sessions/sessions.service.ts';
import { createTestApp, listenWithSecondProcess, type TestApp } from './app.ts';
import { createMember, createOrganization, createSpace, type TestOrganization, type TestSpace, type TestUser } from './factories.ts';

/*
 * The cast and servers of live-editing tests (src/modules/collab): one organization, two
 * members who may edit (Eda and Otto, the names their cursors show), a space whose main
 * content holds the pages asked for, and, for socket tests, the app listening beside a
 * second server process on the same database.
 */

export interface CollabSpace {
  org: TestOrganization;
  editor: TestUser;
  other: TestUser;
  space: TestSpace;
  spaceId: string;
  /** The pages' ids, in the order they were asked for. */
  pageIds: string[];
}

/** The cast, with the pages written into the space's main content in one revision. */
export async function createCollabSpace(t: TestApp, pages: NewPage[]): Promise<CollabSpace> {
  const org = await createOrganization(t, { title: 'Acme Docs' });
  const editor = await createMember(t, org.id, 'edit', { displayName: 'Eda' });
  const other = await createMember(t, org.id, 'edit', { displayName: 'Otto' });
  const space = await createSpace(t, { organization: org, title: 'Handbook' });
  const pageIds: string[] = [];
  await editSpaceContent(t.app.deps, space.id, org.admin.id, (e) => {
    for (const page of pages) pageIds.push(e.insertPage(page));
  });
  return { org, editor, other, space, spaceId: space.id, pageIds };
}

/** The Cookie header of a browser signed in as `user` (a session started by a sign-in link). */
export async function sessionCookie(t: TestApp, user: TestUser): Promise<string> {
  const id = await startSession(t.db, t.clock, t.config.sessionTtlMs, { userId: user.id, method: 'link', organizationId: null });
  return `quire_session=${id}`;
}

export interface CollabServers extends CollabSpace {
  t: TestApp;
  /** The test app's port, and another server process's that learns of writes only through the database. */
  port: number;
  secondPort: number;
  /** A WebSocket to `path` (on this process unless `at` says otherwise; from the app's own origin unless `origin` says otherwise), ended by `close`. */
  socket(path: string, options: { cookie: string | null; at?: number; origin?: string }): WebSocket;
  /** Ends every socket opened, then both servers. */
  close(): Promise<void>;
}

export async function startCollabServers(pages: NewPage[]): Promise<CollabServers> {
  const t = await createTestApp();
  const cast = await createCollabSpace(t, pages);
  const { port, second, secondPort } = await listenWithSecondProcess(t);
  const open: WebSocket[] = [];
  const appOrigin = new URL(t.config.publicUrl).origin;
  return {
    ...cast,
    t,
    port,
    secondPort,
    socket(path, { cookie, at = port, origin = appOrigin }) {
      const ws = new WebSocket(`ws://127.0.0.1:${at}${path}`, { headers: { origin, ...(cookie ? { cookie } : {}) } });
      open.push(ws);
      return ws;
    },
    async close() {
      for (const ws of open) ws.terminate();
      await second.close();
      await t.close();
    },
  };
}
