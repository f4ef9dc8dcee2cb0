import { definePolicy } from '../../policies/index.ts';
import { spacePolicy, type ContentAccess } from '../../access/index.ts';

/*
 * PDF exports (docs/decisions/pdf.md). A space's PDF is a read of its content: whoever
 * may view the space (members, and visitors of a public or unlisted space) may export it.
 * A change request's PDF follows the change request's `view` rule, which
 * loadChangeRequest applies (members with read on the space). The download URL is a
 * capability: anyone holding it gets the file until it expires, while the space lives.
 */
export const pdfPolicy = definePolicy<ContentAccess, 'export'>({
  export: (a) => spacePolicy.can('view', a),
});
