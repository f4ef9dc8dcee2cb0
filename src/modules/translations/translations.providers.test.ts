import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProviderStandIn, type ProviderStandIn } from '../../../test/translation-providers.ts';
import { batches, providerAddressGuard, providerFromConfig, TranslationFailure } from './translations.providers.ts';

/* The provider adapters against their stand-ins: batching, the address rule, redirects. */

const config = (provider: 'libretranslate' | 'deepl' | 'openai', url: string) => ({
  translationProvider: provider,
  translationApiUrl: url,
  translationApiKey: 'key',
  translationModel: 'm',
  translationTimeoutMs: 5000,
});
const request = (segments: string[]) => ({ segments, source: 'en', target: 'fr', instructions: '', glossary: [] });

describe('translation providers', () => {
  let libre: ProviderStandIn;
  let deepl: ProviderStandIn;
  let openai: ProviderStandIn;
  let redirector: http.Server;
  let redirectUrl: string;
  beforeAll(async () => {
    [libre, deepl, openai] = await Promise.all([startProviderStandIn('libretranslate'), startProviderStandIn('deepl'), startProviderStandIn('openai')]);
    redirector = http.createServer((req, res) => {
      res.writeHead(307, { location: `${libre.url}/translate` });
      res.end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    redirectUrl = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await Promise.all([libre.close(), deepl.close(), openai.close(), new Promise((resolve) => redirector.close(resolve))]);
  });

  const segments = Array.from({ length: 120 }, (_, i) => `Segment <b>${i}</b> text`);

  it('batches within each service’s limits and keeps the order', async () => {
    for (const [name, standIn, expected] of [
      ['libretranslate', libre, [50, 50, 20]],
      ['deepl', deepl, [50, 50, 20]],
      ['openai', openai, [20, 20, 20, 20, 20, 20]],
    ] as const) {
      standIn.reset();
      const provider = providerFromConfig(config(name, standIn.url))!;
      const out = await provider.translate(request([...segments]));
      await provider.close();
      expect(out).toEqual(segments.map((s) => s.replace('Segment', 'SEGMENT').replace('text', 'TEXT')));
      expect(standIn.requests.map((r) => (r.body.q ?? r.body.text ?? JSON.parse(r.body.messages[1].content).segments).length)).toEqual(expected);
    }
  });

  it('splits by size too', () => {
    expect(batches(['a'.repeat(60), 'b'.repeat(60), 'c'], 50, 100)).toEqual([[0], [1, 2]]);
    expect(batches([], 50, 100)).toEqual([]);
  });

  it('allows private addresses for the configured host and port only', async () => {
    const guard = providerAddressGuard('http://127.0.0.1:5000');
    expect(guard.allowPrivate('127.0.0.1', 5000)).toBe(true);
    expect(guard.allowPrivate('127.0.0.1', 5001)).toBe(false);
    expect(guard.allowPrivate('10.0.0.1', 5000)).toBe(false);
    const named = providerAddressGuard('http://localhost:11434/v1');
    expect(named.allowPrivate('127.0.0.1', 11434)).toBe(false);
    const addresses = await named.resolve('localhost');
    expect(named.allowPrivate(addresses[0], 11434)).toBe(true);
    expect(named.allowPrivate(addresses[0], 80)).toBe(false);
  });

  it('follows no redirect (the key goes to the configured host only)', async () => {
    libre.reset();
    const provider = providerFromConfig(config('libretranslate', redirectUrl))!;
    await expect(provider.translate(request(['Hello']))).rejects.toThrow(TranslationFailure);
    await provider.close();
    expect(libre.requests).toHaveLength(0);
  });

  it('times out a provider that does not answer, retries, then fails saying so', async () => {
    let calls = 0;
    const silent = http.createServer(() => {
      calls++; // never answers
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const provider = providerFromConfig({ ...config('libretranslate', url), translationTimeoutMs: 200 }, { attempts: 2, backoffMs: 1 })!;
    await expect(provider.translate(request(['Hello']))).rejects.toThrow(/could not be reached: the server took too long to answer \(after 2 attempts\)/);
    await provider.close();
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
    expect(calls).toBe(2);
  });

  it('is undefined without TRANSLATION_PROVIDER', () => {
    expect(providerFromConfig({ ...config('libretranslate', libre.url), translationProvider: undefined })).toBeUndefined();
  });
});
