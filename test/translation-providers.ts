import http from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * Stand-ins for the three translation providers' protocols on 127.0.0.1 (LibreTranslate's
 * POST /translate, DeepL API v2's POST /v2/translate, OpenAI's POST /v1/chat/completions).
 * Each records what it was sent and "translates" by upper-casing the text between tags
 * (markup kept, as the real services do with HTML), so tests can tell translated text
 * from text that was never sent.
 */

export interface RecordedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export interface ProviderStandIn {
  url: string;
  requests: RecordedRequest[];
  /** The next `count` requests are answered with `status` (then normal service resumes). */
  failNext(status: number, count?: number): void;
  /** The next request waits until released: `received` settles when it arrives. */
  holdNext(): { received: Promise<void>; release(): void };
  /** The next chat answer drops the markup of its first segment that has some (a model breaking the structure). */
  breakNextStructure(): void;
  /** DeepL: answer 400 to glossary creation (a language pair without glossaries). */
  refuseGlossaries: boolean;
  /** DeepL: glossaries created and not yet deleted, by id. */
  glossaries: Map<string, { source_lang: string; target_lang: string; entries: string }>;
  /** Every text segment sent, in order (q, text or the chat segments). */
  segments(): string[];
  reset(): void;
  close(): Promise<void>;
}

/** The stand-ins' translation: upper-cased text, tags and attributes untouched; glossary terms (DeepL's own glossaries) given their target form. */
export function fakeTranslate(html: string, glossary: [string, string][] = []): string {
  const upper = (text: string) => text.replace(/(&[a-z]+;)|([^&]+)/gi, (w, entity, plain) => (entity ? entity : plain.toUpperCase()));
  const terms = glossary.length ? new RegExp(`\\b(${glossary.map(([source]) => source.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})\\b`, 'g') : undefined;
  return html.replace(/(<[^>]*>)|([^<]+)/g, (whole, tag: string | undefined, text: string | undefined) => {
    if (tag) return tag;
    if (!terms) return upper(text ?? '');
    return (text ?? '')
      .split(terms)
      .map((part, i) => (i % 2 === 1 ? (glossary.find(([source]) => source === part)?.[1] ?? part) : upper(part)))
      .join('');
  });
}

export async function startProviderStandIn(kind: 'libretranslate' | 'deepl' | 'openai'): Promise<ProviderStandIn> {
  const requests: RecordedRequest[] = [];
  const standIn = { refuseGlossaries: false, glossaries: new Map() } as unknown as ProviderStandIn;
  let failures: number[] = [];
  let breakStructure = false;
  let hold: { arrived: () => void; released: Promise<void> } | undefined;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      if (hold) {
        const { arrived, released } = hold;
        hold = undefined;
        arrived();
        await released;
      }
      let body: any;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = undefined;
      }
      requests.push({ path: req.url ?? '', headers: req.headers, body });
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      const failure = failures.shift();
      if (failure !== undefined) return send(failure, { error: failure === 429 ? 'Too many requests' : 'Service unavailable' });
      if (req.method !== 'POST' && !(kind === 'deepl' && req.method === 'DELETE' && req.url?.startsWith('/v2/glossaries/'))) return send(405, { error: 'Method not allowed' });

      if (kind === 'libretranslate') {
        if (req.url !== '/translate') return send(404, { error: 'Not found' });
        if (!body || !Array.isArray(body.q) || typeof body.source !== 'string' || typeof body.target !== 'string') return send(400, { error: 'Invalid request' });
        return send(200, { translatedText: body.q.map((q: string) => fakeTranslate(q)) });
      }
      if (kind === 'deepl') {
        if (!String(req.headers.authorization ?? '').startsWith('DeepL-Auth-Key ')) return send(403, { message: 'Authorization failure' });
        if (req.url === '/v2/glossaries') {
          if (standIn.refuseGlossaries) return send(400, { message: 'Unsupported glossary language pair' });
          if (!body || body.entries_format !== 'tsv' || typeof body.entries !== 'string' || !body.source_lang || !body.target_lang) return send(400, { message: 'Bad request' });
          const id = `gl-${standIn.glossaries.size + requests.length}`;
          standIn.glossaries.set(id, { source_lang: body.source_lang, target_lang: body.target_lang, entries: body.entries });
          return send(201, { glossary_id: id, name: body.name, ready: true, source_lang: body.source_lang, target_lang: body.target_lang, entry_count: body.entries.split('\n').length });
        }
        if (req.method === 'DELETE') {
          standIn.glossaries.delete(decodeURIComponent((req.url ?? '').slice('/v2/glossaries/'.length)));
          res.writeHead(204);
          return res.end();
        }
        if (req.url !== '/v2/translate') return send(404, { message: 'Not found' });
        if (!body || !Array.isArray(body.text) || body.text.length > 50 || typeof body.target_lang !== 'string') return send(400, { message: 'Bad request' });
        const glossary = body.glossary_id ? standIn.glossaries.get(body.glossary_id) : undefined;
        if (body.glossary_id && !glossary) return send(404, { message: 'Glossary not found' });
        const terms = glossary ? glossary.entries.split('\n').map((line) => line.split('\t') as [string, string]) : [];
        return send(200, { translations: body.text.map((text: string) => ({ detected_source_language: body.source_lang ?? 'EN', text: fakeTranslate(text, terms) })) });
      }
      if (req.url !== '/v1/chat/completions') return send(404, { error: { message: 'Not found' } });
      const user = body?.messages?.find((m: any) => m.role === 'user')?.content;
      let segments: string[] = [];
      try {
        segments = JSON.parse(user).segments;
      } catch {
        return send(400, { error: { message: 'bad user message' } });
      }
      let translations = segments.map((s) => fakeTranslate(s));
      if (breakStructure) {
        breakStructure = false;
        const victim = translations.findIndex((t) => t.includes('<'));
        translations = translations.map((t, i) => (i === victim ? t.replace(/<[^>]*>/g, '') + ' (markup lost)' : t));
      }
      return send(200, {
        id: 'chatcmpl-standin',
        object: 'chat.completion',
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify({ translations }) }, finish_reason: 'stop' }],
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;

  const methods: Omit<ProviderStandIn, 'refuseGlossaries' | 'glossaries'> = {
    url: kind === 'openai' ? `${base}/v1` : base,
    requests,
    failNext(status, count = 1) {
      failures = [...failures, ...Array.from({ length: count }, () => status)];
    },
    breakNextStructure() {
      breakStructure = true;
    },
    holdNext() {
      let arrived!: () => void;
      let release!: () => void;
      const received = new Promise<void>((resolve) => (arrived = resolve));
      hold = { arrived, released: new Promise<void>((resolve) => (release = resolve)) };
      return { received, release };
    },
    segments() {
      return requests.flatMap((r) => {
        if (Array.isArray(r.body?.q)) return r.body.q;
        if (Array.isArray(r.body?.text)) return r.body.text;
        const user = r.body?.messages?.find((m: any) => m.role === 'user')?.content;
        try {
          return JSON.parse(user).segments ?? [];
        } catch {
          return [];
        }
      });
    },
    reset() {
      requests.length = 0;
      failures = [];
      breakStructure = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  Object.assign(standIn, methods);
  return standIn;
}
