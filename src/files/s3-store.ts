import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { CopyObjectCommand, DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3Config } from '../config.ts';
import { hashed, newDigest } from './hashing.ts';
import { checkAddress, type FileBackend, type FileStream, type StoredFile } from './types.ts';

/*
 * Files in an S3-compatible bucket (FILE_STORE=s3): `<prefix><area>/<hh>/<hash>`. A stream
 * of unknown length is uploaded (multipart, a part at a time) under a temporary key while
 * it is hashed, then copied to its hash's key and the temporary object removed.
 */
export function createS3Backend(config: S3Config): FileBackend {
  const client = new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    ...(config.accessKeyId && config.secretAccessKey ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } } : {}),
  });
  const Bucket = config.bucket;
  const keyOf = (area: string, hash: string) => `${config.prefix}${area}/${hash.slice(0, 2)}/${hash}`;

  async function stat(area: string, hash: string): Promise<{ size: number } | undefined> {
    checkAddress(area, hash);
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket, Key: keyOf(area, hash) }));
      return { size: Number(head.ContentLength ?? 0) };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  return {
    kind: 's3',
    stat,

    async put(area, source): Promise<StoredFile> {
      checkAddress(area, '0'.repeat(64));
      const temporary = `${config.prefix}tmp/${new Date().toISOString()}-${randomBytes(8).toString('hex')}`;
      const digest = newDigest();
      const body = Readable.from(hashed(source, digest));
      try {
        await new Upload({ client, params: { Bucket, Key: temporary, Body: body } }).done();
        const hash = digest.hash.digest('hex');
        if (!(await stat(area, hash))) {
          await client.send(new CopyObjectCommand({ Bucket, Key: keyOf(area, hash), CopySource: `${Bucket}/${encodeURI(temporary)}` }));
        }
        return { hash, size: digest.size };
      } finally {
        body.destroy();
        await client.send(new DeleteObjectCommand({ Bucket, Key: temporary })).catch(() => undefined);
      }
    },

    async get(area, hash): Promise<FileStream | undefined> {
      checkAddress(area, hash);
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: keyOf(area, hash) }));
        return { size: Number(object.ContentLength ?? 0), stream: object.Body as Readable };
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },

    async delete(area, hashes) {
      for (const hash of hashes) {
        checkAddress(area, hash);
        await client.send(new DeleteObjectCommand({ Bucket, Key: keyOf(area, hash) }));
      }
    },

    async close() {
      client.destroy();
    },
  };
}

function isMissing(error: unknown): boolean {
  if (error instanceof S3ServiceException) return error.name === 'NotFound' || error.name === 'NoSuchKey' || error.$metadata?.httpStatusCode === 404;
  return false;
}
