import type { Readable } from 'node:stream';
import type { Db } from '../db/database.ts';

/*
 * The file store port: file bytes addressed by their SHA-256, in named areas (content
 * blobs, PDF exports), whatever holds them (a folder, the database, an S3 bucket). Every
 * server process on one database (and, for S3, one bucket) sees the same files.
 */

/** Where a file belongs: `blobs` (content files, referenced by spaces) or `exports` (PDF exports). */
export type FileArea = 'blobs' | 'exports';
export const FILE_AREAS: readonly FileArea[] = ['blobs', 'exports'];

export type FileStoreKind = 'fs' | 'database' | 's3';

export interface StoredFile {
  /** SHA-256 of the bytes, lower-case hex. */
  hash: string;
  size: number;
}

export interface FileStream {
  size: number;
  /** The bytes; an error mid-way (the file removed meanwhile) is emitted on the stream. */
  stream: Readable;
}

/** What a backend does: bytes in, bytes out, by area and hash. */
export interface FileBackend {
  readonly kind: FileStoreKind;
  /**
   * Stores the bytes under their hash, streamed in (a Buffer, a stream or any async
   * iterable of chunks; never collected whole). Storing bytes already present is
   * harmless. Durable when it resolves. Never part of a database transaction.
   */
  put(area: FileArea, source: Buffer | AsyncIterable<Buffer | Uint8Array>): Promise<StoredFile>;
  /** The bytes as a stream, or undefined when there is no such file. */
  get(area: FileArea, hash: string): Promise<FileStream | undefined>;
  stat(area: FileArea, hash: string): Promise<{ size: number } | undefined>;
  /** Removes the files (absent ones are ignored). */
  delete(area: FileArea, hashes: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** A file a signed download URL serves: which bytes, under which name and type, for which owner. */
export interface DownloadTarget {
  area: FileArea;
  /** The owner the serving route checks (for blobs: the space that must still hold the file). */
  scope: string;
  hash: string;
  name: string;
  contentType: string;
  /** Unix seconds after which the URL no longer works; absent: it works while the owner holds the file. */
  expiresAt?: number;
}

export interface FileStore extends FileBackend {
  exists(area: FileArea, hash: string): Promise<boolean>;
  /** The whole file in memory, for small files only: undefined when absent or larger than maxBytes. */
  read(area: FileArea, hash: string, maxBytes: number): Promise<Buffer | undefined>;
  /** An absolute URL of the download route (`GET /downloads/...`) serving the file; every part of it is signed. */
  signedUrl(target: DownloadTarget): Promise<string>;
  /**
   * A synchronous signer for many URLs; `via` is the database handle to read the signing
   * secret with (the caller's transaction, when it is in one).
   */
  urlSigner(via?: Db): Promise<(target: DownloadTarget) => string>;
  /** The target of a download request whose signature (over the whole URL) is valid and current; else undefined. */
  verifyDownload(params: { area: string; scope: string; hash: string; name: string }, query: Record<string, unknown>): Promise<DownloadTarget | undefined>;
}

export const HASH_PATTERN = /^[0-9a-f]{64}$/;

export function checkAddress(area: string, hash: string): void {
  if (!FILE_AREAS.includes(area as FileArea)) throw new Error(`unknown file area "${area}"`);
  if (!HASH_PATTERN.test(hash)) throw new Error('a file hash is 64 lower-case hex digits');
}
