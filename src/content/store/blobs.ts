import type { FileStore } from '../../files/types.ts';

/*
 * File bytes of content, stored once per content hash in the file store's `blobs` area
 * (src/files). Which spaces reference a blob is recorded in the database (space_blobs);
 * a blob is removed only when the last space referencing it is purged.
 */

export const BLOB_AREA = 'blobs' as const;

/** The stored bytes (small files only, e.g. images for a PDF), or undefined when gone or larger than maxBytes. */
export function readBlob(files: FileStore, hash: string, maxBytes: number): Promise<Buffer | undefined> {
  if (!/^[0-9a-f]{64}$/.test(hash)) return Promise.resolve(undefined);
  return files.read(BLOB_AREA, hash, maxBytes);
}

export function removeBlobs(files: FileStore, hashes: string[]): Promise<void> {
  return files.delete(BLOB_AREA, hashes);
}
