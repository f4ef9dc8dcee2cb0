import { Type, type Static } from 'typebox';
import { Id } from '../../schemas/common.ts';


export const SpaceParams = Type.Object({ spaceId: Id('The unique id of the space') });
export const ChangeRequestParams = Type.Object({
  spaceId: Id('The unique id of the space'),
  changeRequestId: Id('The id of the change request, or its number in the space'),
});

/** GitBook's page selection: `page` alone exports the page and its subpages; with `only`, the page alone. */
export const PdfQuery = Type.Object({
  only: Type.Optional(Type.Boolean({ description: 'Generate a PDF only for the provided page (not its subpages)' })),
  page: Type.Optional(Id('ID of a specific page to generate a PDF for (with its subpages unless `only`)')),
});
export type PdfQueryInput = Static<typeof PdfQuery>;

export const PdfUrl = Type.Object(
  { url: Type.String({ format: 'uri', description: 'Temporary URL of the PDF; it works for 1 hour' }) },
  { description: 'URL of the PDF' },
);
export type PdfUrlWire = Static<typeof PdfUrl>;

/** The download URL's id: 256 random bits, base64url. */
export const ExportParams = Type.Object({ exportId: Type.String({ pattern: '^[A-Za-z0-9_-]{43}$' }) });
