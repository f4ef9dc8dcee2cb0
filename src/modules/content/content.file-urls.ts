import type { Context } from '../../context.ts';
import { BLOB_AREA } from '../../content/store/blobs.ts';
import type { FileEntry } from '../../content/store/types.ts';

/* The signed URL of a space's file: the content API, change request batches and the published site all link files this way. */

/** Signs file URLs so blobs are served, by the download route, without a token to whoever was given the URL. */
export async function fileUrlSigner(ctx: Pick<Context, 'db' | 'files'>, spaceId: string) {
  const sign = await ctx.files.urlSigner(ctx.db);
  return (file: FileEntry) => sign({ area: BLOB_AREA, scope: spaceId, hash: file.hash, name: file.name, contentType: file.contentType });
}
