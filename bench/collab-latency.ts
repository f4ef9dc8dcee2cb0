/*
 * Remote-edit latency of live editing (issue 32, item 4): the time from a member's keystroke
 * (a Yjs update sent on the socket) to its arrival in another member's document, for a member
 * on the same server process and for one on a second process on the same database (which
 * reads it by polling collab_updates). Node clients speak y-protocols as the browser does.
 * Run: node --import tsx bench/collab-latency.ts [rounds]; DATABASE_URL=... for PostgreSQL.
 */
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import * as Y from 'yjs';
import * as syncProtocol from 'y-protocols/sync';
import * as encoding from 'lib0/encoding';
import * as decoding from 'lib0/decoding';
import { buildApp } from '../src/app.ts';
import { editSpaceContent } from '../src/modules/content/content.service.ts';
import { startSession } from '../src/modules/sessions/sessions.service.ts';
import { FRAGMENT, MESSAGE } from '../src/modules/collab/collab.service.ts';
import { createTestApp } from '../test/app.ts';
import { createMember, createOrganization } from '../test/factories.ts';

class Client {
  readonly doc = new Y.Doc();
  readonly synced: Promise<void>;
  constructor(readonly ws: WebSocket) {
    let done!: () => void;
    this.synced = new Promise((resolve) => (done = resolve));
    ws.on('open', () => this.send((e) => syncProtocol.writeSyncStep1(e, this.doc)));
    ws.on('message', (data: Buffer) => {
      const decoder = decoding.createDecoder(new Uint8Array(data));
      if (decoding.readVarUint(decoder) !== MESSAGE.sync) return;
      const encoder = encoding.createEncoder();
      encoding.writeVarUint(encoder, MESSAGE.sync);
      if (syncProtocol.readSyncMessage(decoder, encoder, this.doc, this) === syncProtocol.messageYjsSyncStep2) done();
      if (encoding.length(encoder) > 1) ws.send(encoding.toUint8Array(encoder));
    });
    this.doc.on('update', (update: Uint8Array, origin: unknown) => origin !== this && this.send((e) => syncProtocol.writeUpdate(e, update)));
  }
  send(write: (e: encoding.Encoder) => void) {
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, MESSAGE.sync);
    write(encoder);
    this.ws.send(encoding.toUint8Array(encoder));
  }
  text(): Y.XmlText {
    return (this.doc.getXmlFragment(FRAGMENT).get(0) as Y.XmlElement).get(0) as Y.XmlText;
  }
}

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;

async function main() {
  const rounds = Number(process.argv[2] ?? 40);
  const t = await createTestApp();
  const org = await createOrganization(t, { title: 'Bench' });
  const [a, b] = [await createMember(t, org.id, 'edit'), await createMember(t, org.id, 'edit')];
  const spaceId = (await t.request('POST', `/v1/orgs/${org.id}/spaces`, { token: org.admin.token, body: { title: 'Space' } })).body.id;
  let pageId = '';
  await editSpaceContent(t.app.deps, spaceId, org.admin.id, (e) => (pageId = e.insertPage({ title: 'Page', markdown: 'Text.\n' })));
  const crId = (await t.request('POST', `/v1/spaces/${spaceId}/change-requests`, { token: a.token, body: { subject: 'Bench' } })).body.id;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const second = await buildApp({ config: t.config, db: t.db, dialect: t.dialect, clock: t.clock, logger: false });
  await second.listen({ port: 0, host: '127.0.0.1' });
  const connect = async (user: { id: string }, app: typeof second) => {
    const id = await startSession(t.db, t.clock, t.config.sessionTtlMs, { userId: user.id, method: 'link', organizationId: null });
    const port = (app.server.address() as AddressInfo).port;
    const client = new Client(new WebSocket(`ws://127.0.0.1:${port}/app/collab/${spaceId}/${crId}/${pageId}`, { headers: { origin: 'http://quire.test', cookie: `quire_session=${id}` } }));
    await client.synced;
    return client;
  };
  const writer = await connect(a, t.app);
  const near = await connect(b, t.app);
  const far = await connect(b, second);
  const measure = async (reader: Client) => {
    const samples: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const mark = `m${i}x`;
      const arrived = new Promise<void>((resolve) => {
        const check = () => reader.text().toString().includes(mark) && (reader.doc.off('update', check), resolve());
        reader.doc.on('update', check);
      });
      const start = performance.now();
      writer.text().insert(0, mark);
      await arrived;
      samples.push(performance.now() - start);
      await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 250));
    }
    return { medianMs: +quantile(samples, 0.5).toFixed(1), p95Ms: +quantile(samples, 0.95).toFixed(1), maxMs: +Math.max(...samples).toFixed(1) };
  };
  const result = { database: t.dialect, rounds, sameProcess: await measure(near), otherProcess: await measure(far) };
  console.log(JSON.stringify(result, null, 2));
  for (const c of [writer, near, far]) c.ws.close();
  await second.close();
  await t.close();
}

await main();
