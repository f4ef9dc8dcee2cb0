/*
 * The editor's calls: Quire's API with the session cookie and its CSRF header (the server
 * accepts the cookie only so, from this origin), and the app's markdown reading for paste.
 */
import type { Document } from '../../content/markdown/types.ts';

export interface EditorConfig {
  apiBase: string;
  appBase: string;
  spaceId: string;
  changeRequestId: string;
  changeRequestNumber: number;
  pageId: string;
  pageTitle: string;
  csrfHeader: string;
  csrf: string;
  /** The live editing socket's URL (src/modules/collab), and the name others see by one's cursor. */
  collab?: string;
  userName?: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface PageEntry {
  id: string;
  title: string;
  type: string;
  pages?: PageEntry[];
}

export class Api {
  constructor(private readonly config: EditorConfig) {}

  private get cr(): string {
    return `${this.config.apiBase}/spaces/${encodeURIComponent(this.config.spaceId)}/change-requests/${encodeURIComponent(this.config.changeRequestId)}`;
  }

  private async call<T>(url: string, init: RequestInit = {}): Promise<T> {
    const response = await fetch(url, {
      ...init,
      credentials: 'same-origin',
      headers: { accept: 'application/json', [this.config.csrfHeader]: this.config.csrf, ...(init.body ? { 'content-type': 'application/json' } : {}), ...(init.headers ?? {}) },
    });
    const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
    if (!response.ok) throw new ApiError(response.status, body?.error?.message ?? `${response.status} ${response.statusText}`);
    return body as T;
  }

  async page(): Promise<{ title: string; document: Document }> {
    return this.call(`${this.cr}/content/page/${encodeURIComponent(this.config.pageId)}?format=document`);
  }

  async pages(): Promise<PageEntry[]> {
    const result = await this.call<{ pages: PageEntry[] }>(`${this.cr}/content/pages`);
    return result.pages;
  }

  async save(document: Document): Promise<void> {
    await this.call(`${this.cr}/content`, {
      method: 'POST',
      body: JSON.stringify({ changes: [{ operation: 'update_page', page: this.config.pageId, document: { document } }] }),
    });
  }

  /** Stores a file in the change request (`insert_files`) and answers its id. */
  async upload(file: File): Promise<{ id: string; name: string }> {
    const base64 = await toBase64(file);
    const result = await this.call<{ insertedFiles: Array<{ id: string; name: string }> }>(`${this.cr}/content?compat=false`, {
      method: 'POST',
      body: JSON.stringify({ changes: [{ operation: 'insert_files', files: [{ name: file.name || 'upload', contentType: file.type || 'application/octet-stream', base64 }] }] }),
    });
    const inserted = result.insertedFiles[0];
    if (!inserted) throw new ApiError(500, 'The server stored no file');
    return inserted;
  }

  /** Where a file of the change request can be shown from. */
  async fileUrl(fileId: string): Promise<string> {
    const file = await this.call<{ downloadURL: string }>(`${this.cr}/content/files/${encodeURIComponent(fileId)}`);
    return file.downloadURL;
  }

  /** The organization's OpenAPI specs (their slugs), for an OpenAPI operation block. */
  async openapiSpecs(): Promise<string[]> {
    const org = await this.organization();
    const result = await this.call<{ items: Array<{ slug: string }> }>(`${this.config.apiBase}/orgs/${encodeURIComponent(org)}/openapi?limit=100`);
    return result.items.map((spec) => spec.slug);
  }

  /** The operations (method and path) of a spec's latest version, read from its parsed entrypoint. */
  async openapiOperations(spec: string): Promise<Array<{ method: string; path: string }>> {
    const org = await this.organization();
    const content = await this.call<{ filesystem: Record<string, unknown> }>(`${this.config.apiBase}/orgs/${encodeURIComponent(org)}/openapi/${encodeURIComponent(spec)}/versions/latest/content`);
    const entry = Object.values(content.filesystem)[0] as { paths?: Record<string, Record<string, unknown>> } | undefined;
    const out: Array<{ method: string; path: string }> = [];
    for (const [path, item] of Object.entries(entry?.paths ?? {})) {
      for (const method of HTTP_METHODS) if (item && typeof item === 'object' && method in item) out.push({ method, path });
    }
    return out;
  }

  private org: Promise<string> | null = null;

  /** The space's organization (read once). */
  private organization(): Promise<string> {
    this.org ??= this.call<{ organization: string }>(`${this.config.apiBase}/spaces/${encodeURIComponent(this.config.spaceId)}`).then((space) => space.organization);
    return this.org;
  }

  /** Markdown read by the server's markdown engine (what the API does with `{markdown}`). */
  async markdown(markdown: string): Promise<Document> {
    const result = await this.call<{ document: Document }>(`${this.config.appBase}/markdown`, { method: 'POST', body: JSON.stringify({ csrf: this.config.csrf, markdown }) });
    return result.document;
  }
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

function toBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(file);
  });
}
