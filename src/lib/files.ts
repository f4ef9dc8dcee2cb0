import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Writes a file durably: to a temporary name beside it, synced, then renamed into place,
 * so a reader (or a crash) never sees half a file.
 */
export function writeFileDurably(target: string, bytes: Buffer, mode = 0o644): void {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = fs.openSync(temporary, 'w', mode);
  try {
    fs.writeSync(fd, bytes);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temporary, target);
}
