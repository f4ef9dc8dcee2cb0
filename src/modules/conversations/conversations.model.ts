import type { Config } from '../../config.ts';

/*
 * The OpenAI-compatible endpoints of CONVERSATIONS_LLM_URL (chat completions) and
 * CONVERSATIONS_EMBEDDINGS_URL (embeddings). They are set by the server's administrator,
 * not by API callers, so a plain fetch with a timeout is enough here (no SSRF guard). A
 * failure is thrown to the caller, which falls back to the offline pipeline.
 */

type ModelConfig = Pick<
  Config,
  'conversationsLlmUrl' | 'conversationsLlmModel' | 'conversationsEmbeddingsUrl' | 'conversationsEmbeddingsModel' | 'conversationsModelApiKey' | 'conversationsModelTimeoutMs'
>;

/** The endpoint itself, or the base URL it lives under (`.../v1` -> `.../v1/chat/completions`). */
function endpoint(base: string, path: string): string {
  return base.endsWith(path) ? base : `${base}${path}`;
}

async function post(config: ModelConfig, url: string, body: unknown): Promise<any> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(config.conversationsModelApiKey ? { authorization: `Bearer ${config.conversationsModelApiKey}` } : {}),
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(config.conversationsModelTimeoutMs),
  });
  if (!response.ok) throw new Error(`${new URL(url).host} answered ${response.status}`);
  return response.json();
}

/** Asks the chat model for a JSON object; throws when it answers anything else. */
export async function chatJson(config: ModelConfig, system: string, user: string): Promise<Record<string, unknown>> {
  if (!config.conversationsLlmUrl) throw new Error('CONVERSATIONS_LLM_URL is not set');
  const answer = await post(config, endpoint(config.conversationsLlmUrl, '/chat/completions'), {
    model: config.conversationsLlmModel,
    temperature: 0,
    response_format: { type: 'json_object' },
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: user },
    ],
  });
  const content = answer?.choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw new Error('the chat model answered no message');
  // Some models wrap JSON in a fenced block despite response_format.
  const json = JSON.parse(content.replace(/^\s*```(?:json)?\s*|\s*```\s*$/g, ''));
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw new Error('the chat model answered no JSON object');
  return json as Record<string, unknown>;
}

/** Embeddings of texts, in order; throws unless there is one vector of numbers per text. */
export async function embed(config: ModelConfig, texts: string[]): Promise<number[][]> {
  if (!config.conversationsEmbeddingsUrl) throw new Error('CONVERSATIONS_EMBEDDINGS_URL is not set');
  if (texts.length === 0) return [];
  const answer = await post(config, endpoint(config.conversationsEmbeddingsUrl, '/embeddings'), {
    model: config.conversationsEmbeddingsModel,
    input: texts,
  });
  const data = Array.isArray(answer?.data) ? [...answer.data] : [];
  data.sort((a: any, b: any) => Number(a?.index ?? 0) - Number(b?.index ?? 0));
  const vectors = data.map((d: any) => d?.embedding);
  if (vectors.length !== texts.length || !vectors.every((v: unknown) => Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'number' && Number.isFinite(x)))) {
    throw new Error('the embeddings model answered no vector for every text');
  }
  return vectors as number[][];
}
