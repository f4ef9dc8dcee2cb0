import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { Config } from '../../config.ts';
import { createOutboundClient, OutboundError, type OutboundClient } from '../../lib/outbound/client.ts';
import { protectTerms, type GlossaryTerm } from '../../content/translate/index.ts';

/*
 * Machine translation providers behind one interface (docs/decisions/translations.md):
 * LibreTranslate, DeepL API v2 and any OpenAI-compatible chat completions server. Each
 * takes HTML segments and answers them translated, in order, keeping the markup. They
 * batch within their service's limits, and every call goes through the outbound client
 * with a timeout and retries with backoff on 429, 5xx and network errors.
 */

export interface TranslationRequest {
  segments: string[];
  /** GitBook language codes. */
  source: string;
  target: string;
  /** The translation's instructions as plain text (only the chat model reads them). */
  instructions: string;
  glossary: GlossaryTerm[];
}

export interface TranslationProvider {
  readonly name: string;
  translate(request: TranslationRequest): Promise<string[]>;
  close(): Promise<void>;
}

/** A run fails with this message (shown in the translation's lastRun.error). */
export class TranslationFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TranslationFailure';
  }
}

export interface ProviderOptions {
  /** Attempts per call (first + retries). */
  attempts?: number;
  /** First backoff; doubles each retry (tests shorten it). */
  backoffMs?: number;
}

type ProviderConfig = Pick<Config, 'translationProvider' | 'translationApiUrl' | 'translationApiKey' | 'translationModel' | 'translationTimeoutMs'>;

const DEFAULT_URLS = {
  libretranslate: 'https://libretranslate.com',
  deepl: 'https://api.deepl.com',
  openai: 'https://api.openai.com/v1',
} as const;

export const LANGUAGE_NAMES: Record<string, string> = {
  en: 'English', fr: 'French', de: 'German', es: 'Spanish', it: 'Italian', pt: 'Portuguese', 'pt-br': 'Brazilian Portuguese', ru: 'Russian', ja: 'Japanese',
  zh: 'Simplified Chinese', 'zh-tw': 'Traditional Chinese', yue: 'Cantonese', ko: 'Korean', ar: 'Arabic', hi: 'Hindi', nl: 'Dutch', pl: 'Polish', tr: 'Turkish',
  sv: 'Swedish', no: 'Norwegian', da: 'Danish', fi: 'Finnish', el: 'Greek', cs: 'Czech', hu: 'Hungarian', ro: 'Romanian', th: 'Thai', vi: 'Vietnamese',
  id: 'Indonesian', ms: 'Malay', he: 'Hebrew', uk: 'Ukrainian', sk: 'Slovak', bg: 'Bulgarian', hr: 'Croatian', lt: 'Lithuanian', lv: 'Latvian', et: 'Estonian', sl: 'Slovenian',
};

/** The configured provider, or undefined when TRANSLATION_PROVIDER is not set. */
export function providerFromConfig(config: ProviderConfig, options: ProviderOptions = {}): TranslationProvider | undefined {
  const name = config.translationProvider;
  if (!name) return undefined;
  const base = (config.translationApiUrl ?? DEFAULT_URLS[name]).replace(/\/+$/, '');
  const http = providerHttp(base, config, options);
  if (name === 'libretranslate') return libreTranslate(base, config, http);
  if (name === 'deepl') return deepl(base, config, http);
  return openaiChat(base, config, http);
}

interface ProviderHttp {
  postJson(url: string, body: unknown, headers?: Record<string, string>): Promise<any>;
  /** DELETE, answered 2xx or not: best effort, never retried. */
  delete(url: string, headers?: Record<string, string>): Promise<void>;
  close(): Promise<void>;
}

/**
 * POSTs JSON through an outbound client of its own: the provider's URL is set by the
 * administrator, not by API callers, so its host (and only its host, on its port) may be
 * a private or loopback address (a LibreTranslate or Ollama beside Quire). No redirect is
 * followed: the key must not travel anywhere else.
 */
/**
 * The address rule of the provider's client: the configured host's own addresses (as
 * resolved for it), on its port, may be private or loopback; nothing else may.
 */
export function providerAddressGuard(base: string) {
  const target = new URL(base);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const port = Number(target.port) || (target.protocol === 'https:' ? 443 : 80);
  const hostAddresses = new Set<string>(isIP(host) ? [host] : []);
  return {
    allowPrivate: (address: string, p: number) => p === port && hostAddresses.has(address),
    resolve: async (name: string) => {
      const addresses = (await lookup(name, { all: true, verbatim: true })).map((a) => a.address);
      if (name === host) for (const a of addresses) hostAddresses.add(a);
      return addresses;
    },
  };
}

function providerHttp(base: string, config: ProviderConfig, options: ProviderOptions): ProviderHttp {
  const target = new URL(base);
  let client: OutboundClient | undefined;
  const outbound = () =>
    (client ??= createOutboundClient({
      ...providerAddressGuard(base),
      maxRedirects: 0,
      totalTimeoutMs: config.translationTimeoutMs,
      maxBytes: 50 * 1024 * 1024,
    }));
  const attempts = Math.max(1, options.attempts ?? 5);
  const backoffMs = options.backoffMs ?? 1000;
  const hostName = target.host;

  return {
    async postJson(url, body, headers = {}) {
      let lastError = '';
      for (let attempt = 1; attempt <= attempts; attempt++) {
        let retryAfterMs: number | undefined;
        try {
          const response = await outbound().fetchBytes(url, {
            method: 'POST',
            body: JSON.stringify(body),
            headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
          });
          if (response.status >= 200 && response.status < 300) {
            try {
              return JSON.parse(response.bytes.toString('utf8'));
            } catch {
              throw new TranslationFailure(`the translation provider at ${hostName} answered something that is not JSON`);
            }
          }
          lastError = `the translation provider at ${hostName} answered ${response.status}${providerMessage(response.bytes)}`;
          if (response.status !== 429 && response.status < 500) throw new TranslationFailure(lastError);
          const retryAfter = Number(response.headers['retry-after']);
          if (Number.isFinite(retryAfter) && retryAfter >= 0) retryAfterMs = Math.min(retryAfter * 1000, 60_000);
        } catch (error) {
          if (error instanceof TranslationFailure) throw error;
          if (!(error instanceof OutboundError)) throw error;
          lastError = `the translation provider at ${hostName} could not be reached: ${error.message}`;
          if (error.kind === 'invalid-url' || error.kind === 'refused-address' || error.kind === 'too-many-redirects' || error.kind === 'too-large') {
            throw new TranslationFailure(lastError);
          }
        }
        if (attempt < attempts) await new Promise((resolve) => setTimeout(resolve, retryAfterMs ?? backoffMs * 2 ** (attempt - 1)));
      }
      throw new TranslationFailure(`${lastError} (after ${attempts} attempts)`);
    },
    async delete(url, headers = {}) {
      try {
        await outbound().fetchBytes(url, { method: 'DELETE', headers });
      } catch {
        // Left behind: a glossary DeepL keeps until deleted by hand.
      }
    },
    close: async () => {
      await client?.close();
    },
  };
}

/** The error message a provider gives in its JSON body, short, for the run's reason. */
function providerMessage(bytes: Buffer): string {
  try {
    const body = JSON.parse(bytes.toString('utf8'));
    const message = body?.error?.message ?? body?.error ?? body?.message;
    return typeof message === 'string' && message ? `: ${message.slice(0, 200)}` : '';
  } catch {
    return '';
  }
}

/** Splits segments into batches of at most `count` items and about `chars` characters. */
export function batches(segments: string[], count: number, chars: number): number[][] {
  const out: number[][] = [];
  let current: number[] = [];
  let size = 0;
  segments.forEach((segment, index) => {
    if (current.length > 0 && (current.length >= count || size + segment.length > chars)) {
      out.push(current);
      current = [];
      size = 0;
    }
    current.push(index);
    size += segment.length;
  });
  if (current.length > 0) out.push(current);
  return out;
}

async function inBatches(segments: string[], count: number, chars: number, call: (batch: string[]) => Promise<string[]>): Promise<string[]> {
  const result: string[] = new Array(segments.length);
  for (const batch of batches(segments, count, chars)) {
    const answer = await call(batch.map((i) => segments[i]));
    batch.forEach((index, k) => (result[index] = answer[k]));
  }
  return result;
}

/** LibreTranslate's codes where they differ from GitBook's (recent LibreTranslate/Argos releases). */
const LIBRE_CODES: Record<string, string> = { 'pt-br': 'pb', zh: 'zh-Hans', 'zh-tw': 'zh-Hant', no: 'nb' };

function libreTranslate(base: string, config: ProviderConfig, http: ProviderHttp): TranslationProvider {
  return {
    name: 'libretranslate',
    async translate(request) {
      const glossary = protectTerms(request.segments, request.glossary);
      const answers = await inBatches(glossary.segments, 50, 20_000, async (batch) => {
        const answer = await http.postJson(`${base}/translate`, {
          q: batch,
          source: LIBRE_CODES[request.source] ?? request.source,
          target: LIBRE_CODES[request.target] ?? request.target,
          format: 'html',
          ...(config.translationApiKey ? { api_key: config.translationApiKey } : {}),
        });
        const texts = answer?.translatedText;
        if (!Array.isArray(texts) || texts.length !== batch.length || !texts.every((t) => typeof t === 'string')) {
          throw new TranslationFailure('LibreTranslate answered no translatedText list with one text per segment');
        }
        return texts as string[];
      });
      return glossary.restore(answers);
    },
    close: () => http.close(),
  };
}

const deeplSource = (code: string) => (code === 'pt-br' ? 'PT' : code === 'zh-tw' ? 'ZH' : code.toUpperCase());
const DEEPL_TARGETS: Record<string, string> = { en: 'EN-US', pt: 'PT-PT', 'pt-br': 'PT-BR', zh: 'ZH-HANS', 'zh-tw': 'ZH-HANT', no: 'NB' };
const deeplTarget = (code: string) => DEEPL_TARGETS[code] ?? code.toUpperCase();

/**
 * DeepL's own glossary for the run when the language pair has them: created from the
 * terms (a term kept as it is maps to itself), used by every call, deleted at the end.
 * Undefined when DeepL refuses it (a pair without glossaries): terms are then protected.
 */
async function deeplGlossary(base: string, http: ProviderHttp, headers: Record<string, string>, request: TranslationRequest): Promise<string | undefined> {
  const terms = request.glossary.filter((t) => !/[\t\r\n]/.test(t.source + t.target));
  if (terms.length === 0) return undefined;
  try {
    const created = await http.postJson(
      `${base}/v2/glossaries`,
      {
        name: `quire-${Date.now()}`,
        source_lang: deeplSource(request.source).toLowerCase(),
        target_lang: deeplSource(request.target).toLowerCase(),
        entries: terms.map((t) => `${t.source}\t${t.target}`).join('\n'),
        entries_format: 'tsv',
      },
      headers,
    );
    return typeof created?.glossary_id === 'string' ? created.glossary_id : undefined;
  } catch (error) {
    if (error instanceof TranslationFailure && / answered 4\d\d/.test(error.message) && !/ answered 4(01|03|29)/.test(error.message)) return undefined;
    throw error;
  }
}

function deepl(base: string, config: ProviderConfig, http: ProviderHttp): TranslationProvider {
  const headers: Record<string, string> = config.translationApiKey ? { authorization: `DeepL-Auth-Key ${config.translationApiKey}` } : {};
  return {
    name: 'deepl',
    async translate(request) {
      const glossaryId = await deeplGlossary(base, http, headers, request);
      const glossary = glossaryId ? { segments: request.segments, restore: (t: string[]) => t } : protectTerms(request.segments, request.glossary);
      try {
        // DeepL: at most 50 texts and 128 KiB per request.
        const answers = await inBatches(glossary.segments, 50, 100_000, async (batch) => {
          const answer = await http.postJson(
            `${base}/v2/translate`,
            {
              text: batch,
              source_lang: deeplSource(request.source),
              target_lang: deeplTarget(request.target),
              tag_handling: 'html',
              preserve_formatting: true,
              ...(glossaryId ? { glossary_id: glossaryId } : {}),
            },
            headers,
          );
          const texts = Array.isArray(answer?.translations) ? answer.translations.map((t: any) => t?.text) : [];
          if (texts.length !== batch.length || !texts.every((t: unknown) => typeof t === 'string')) {
            throw new TranslationFailure('DeepL answered no translations list with one text per segment');
          }
          return texts as string[];
        });
        return glossary.restore(answers);
      } finally {
        if (glossaryId) await http.delete(`${base}/v2/glossaries/${encodeURIComponent(glossaryId)}`, headers);
      }
    },
    close: () => http.close(),
  };
}

/** The ids of a segment's markup (links, marks, placeholders): a translation must keep them all. */
const markupIds = (html: string) => [...html.matchAll(/\bid="([^"]+)"/g)].map((m) => m[1]).sort().join(' ');

function chatEndpoint(base: string): string {
  return base.endsWith('/chat/completions') ? base : `${base}/chat/completions`;
}

export function chatPrompt(request: Omit<TranslationRequest, 'segments'>): string {
  const from = LANGUAGE_NAMES[request.source] ?? request.source;
  const to = LANGUAGE_NAMES[request.target] ?? request.target;
  const lines = [
    `You translate technical documentation from ${from} to ${to}.`,
    'You receive a JSON object {"segments": [...]} of HTML fragments. Answer only a JSON object {"translations": [...]} with exactly one translated fragment per segment, in the same order.',
    'Keep every HTML tag and attribute exactly as it is (including empty <span translate="no" id="..."></span> placeholders, which stand for code and must stay where the sentence needs them); translate only the text between tags.',
  ];
  if (request.glossary.length > 0) {
    lines.push('Glossary (always use these renderings; a term given unchanged stays untranslated):');
    for (const term of request.glossary) lines.push(`- "${term.source}" -> "${term.target}"`);
  }
  if (request.instructions.trim()) lines.push('Instructions from the documentation owners:', request.instructions.trim());
  return lines.join('\n');
}

function openaiChat(base: string, config: ProviderConfig, http: ProviderHttp): TranslationProvider {
  const url = chatEndpoint(base);
  const ask = async (request: TranslationRequest, batch: string[]): Promise<string[] | undefined> => {
    const answer = await http.postJson(
      url,
      {
        model: config.translationModel,
        temperature: 0,
        response_format: { type: 'json_object' },
        messages: [
          { role: 'system', content: chatPrompt(request) },
          { role: 'user', content: JSON.stringify({ segments: batch }) },
        ],
      },
      config.translationApiKey ? { authorization: `Bearer ${config.translationApiKey}` } : {},
    );
    const content = answer?.choices?.[0]?.message?.content;
    if (typeof content !== 'string') return undefined;
    let parsed: any;
    try {
      parsed = JSON.parse(content.replace(/^\s*```(?:json)?\s*|\s*```\s*$/g, ''));
    } catch {
      return undefined;
    }
    const texts = parsed?.translations;
    if (!Array.isArray(texts) || texts.length !== batch.length || !texts.every((t) => typeof t === 'string')) return undefined;
    // The segment structure must survive: the same markup ids in each translation.
    if (!texts.every((t: string, i) => markupIds(t) === markupIds(batch[i]))) return undefined;
    return texts;
  };
  return {
    name: 'openai',
    async translate(request) {
      return inBatches(request.segments, 20, 8_000, async (batch) => {
        const whole = await ask(request, batch);
        if (whole) return whole;
        // One answer broke the structure: ask again segment by segment, so one bad segment fails alone.
        const one = [] as string[];
        for (const segment of batch) {
          const answer = (await ask(request, [segment])) ?? (await ask(request, [segment]));
          if (!answer) throw new TranslationFailure('the chat model did not keep the segment structure (a JSON list of fragments with their markup)');
          one.push(answer[0]);
        }
        return one;
      });
    },
    close: () => http.close(),
  };
}
