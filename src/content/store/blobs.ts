import { createHash } from 'node:crypto';
import { writeFileDurably } from '../../lib/files.ts';
import fs from 'node:fs';
import path from 'node:path';

/*
 * File bytes, stored once per content hash in a folder under DATA_DIR. Which spaces
 * reference a blob is recorded in the database (space_blobs); a blob is removed only
 * when the last space referencing it is purged.
 */

export function blobPath(dataDir: string, hash: string): string {
  return path.join(dataDir, 'blobs', hash.slice(0, 2), hash);
}

/** Stores bytes durably (written, synced, then renamed into place); returns their address. */
export function writeBlob(dataDir: string, bytes: Buffer): { hash: string; size: number } {
  const hash = createHash('sha256').update(bytes).digest('hex');
  // Written again even when present: a purge racing this write cannot leave it missing.
  writeFileDurably(blobPath(dataDir, hash), bytes);
  return { hash, size: bytes.length };
}

/** The stored bytes, or undefined when the blob is gone. */
export function readBlob(dataDir: string, hash: string): Buffer | undefined {
  if (!/^[0-9a-f]{64}$/.test(hash)) return undefined;
  try {
    return fs.readFileSync(blobPath(dataDir, hash));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

export function removeBlobs(dataDir: string, hashes: string[]): void {
  for (const hash of hashes) fs.rmSync(blobPath(dataDir, hash), { force: true });
}
