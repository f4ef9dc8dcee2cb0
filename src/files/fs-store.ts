import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { hashed, newDigest } from './hashing.ts';
import { checkAddress, type FileArea, type FileBackend, type FileStream, type StoredFile } from './types.ts';

/*
 * Files in a folder under DATA_DIR: `<DATA_DIR>/<area>/<first two hex digits>/<hash>`
 * (the layout content blobs always had). Written to a temporary name in the area's folder,
 * synced, then renamed into place, so a reader or a crash never sees half a file; the
 * folder is synced too, so the rename survives a crash.
 */
export function createFsBackend(dataDir: string): FileBackend {
  const areaDir = (area: FileArea) => path.join(dataDir, area);
  const swept = new Set<FileArea>();
  /** Once per area and process: removes temporary files a crash left (older than a day). */
  async function sweepAbandoned(area: FileArea): Promise<void> {
    if (swept.has(area)) return;
    swept.add(area);
    const cutoff = Date.now() - 24 * 60 * 60 * 1000;
    for (const name of await fs.promises.readdir(areaDir(area)).catch(() => [] as string[])) {
      if (!name.startsWith('.tmp-')) continue;
      const file = path.join(areaDir(area), name);
      const stat = await fs.promises.stat(file).catch(() => undefined);
      if (stat && stat.mtimeMs < cutoff) await fs.promises.rm(file, { force: true });
    }
  }
  const fileOf = (area: FileArea, hash: string) => path.join(areaDir(area), hash.slice(0, 2), hash);

  return {
    kind: 'fs',

    async put(area, source): Promise<StoredFile> {
      const dir = areaDir(area);
      await fs.promises.mkdir(dir, { recursive: true });
      await sweepAbandoned(area);
      const temporary = path.join(dir, `.tmp-${randomBytes(8).toString('hex')}`);
      const digest = newDigest();
      try {
        // Server-only: uploaded files and exports of private content.
        await pipeline(Readable.from(hashed(source, digest)), fs.createWriteStream(temporary, { flags: 'wx', mode: 0o600 }));
        const handle = await fs.promises.open(temporary, 'r');
        try {
          await handle.sync();
        } finally {
          await handle.close();
        }
        const hash = digest.hash.digest('hex');
        const target = fileOf(area, hash);
        await fs.promises.mkdir(path.dirname(target), { recursive: true });
        // Renamed over a copy already present: a purge racing this write cannot leave it missing.
        await fs.promises.rename(temporary, target);
        await syncDirectory(path.dirname(target));
        return { hash, size: digest.size };
      } catch (error) {
        await fs.promises.rm(temporary, { force: true });
        throw error;
      }
    },

    async get(area, hash): Promise<FileStream | undefined> {
      checkAddress(area, hash);
      let handle: fs.promises.FileHandle;
      try {
        handle = await fs.promises.open(fileOf(area, hash), 'r');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
      // Open first, then stat the open file: a removal meanwhile cannot cut the read short.
      const { size } = await handle.stat();
      return { size, stream: handle.createReadStream({ autoClose: true }) };
    },

    async stat(area, hash) {
      checkAddress(area, hash);
      try {
        const { size } = await fs.promises.stat(fileOf(area, hash));
        return { size };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },

    async delete(area, hashes) {
      for (const hash of hashes) {
        checkAddress(area, hash);
        await fs.promises.rm(fileOf(area, hash), { force: true });
      }
    },

    async close() {},
  };
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await fs.promises.open(dir, 'r');
  try {
    await handle.sync();
  } catch {
    // Some file systems cannot sync a directory; the file itself is synced.
  } finally {
    await handle.close();
  }
}
