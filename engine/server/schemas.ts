/** The OpenAPI descriptions of requests and answers, built from the same dataset schemas as the validation. */
import { Type, type TSchema } from '@sinclair/typebox';
import type { DatasetDef } from '../model/datasets.js';
import { deleteRecordSchema } from '../ingest/validate.js';
import { TRANSFER_TYPES } from '../model/settings.js';
import { ProductDescriptionSchema, ProductTagCountSchema } from '../service/product-descriptions.js';

const ProblemEntry = Type.Object({
  path: Type.String({ description: 'JSON pointer into the request body, e.g. /sales/3/salesLines/0/quantitySold' }),
  recordId: Type.Optional(Type.String({ description: 'Id of the record the error is in.' })),
  message: Type.String(),
});

export const ProblemSchema = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    instance: Type.Optional(Type.String()),
    requestId: Type.Optional(Type.String()),
    errorCount: Type.Optional(
      Type.Integer({ description: 'How many errors the batch has; the first 1,000 are listed.' }),
    ),
    errorCountIsAtLeast: Type.Optional(
      Type.Boolean({ description: 'Checking stopped at 100,000 errors: the batch has at least errorCount.' }),
    ),
    errors: Type.Optional(Type.Array(ProblemEntry)),
    warnings: Type.Optional(
      Type.Array(ProblemEntry, {
        description: 'What the batch would have been told had it been accepted, and what a refusal leaves open.',
      }),
    ),
  },
  {
    $id: 'Problem',
    title: 'Problem',
    description: 'RFC 9457 problem details; a rejected batch lists every error and applies nothing.',
  },
);

const problemRef = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: Type.Ref('Problem') } },
});

export const errorResponses = {
  400: problemRef('Validation failed: every error listed, nothing applied.'),
  401: {
    ...problemRef('Token missing, expired or invalid, or issued for another X-Tenant.'),
    headers: {
      'WWW-Authenticate': {
        type: 'string',
        description:
          'The bearer challenge (RFC 6750 §3): Bearer realm="replenishment-workbench" when no token came; with ' +
          'error="invalid_token" and a description when the token is unknown, expired or for another tenant.',
      },
    },
  },
  413: problemRef('Body above the limit of this endpoint.'),
  415: problemRef('Body not sent as application/json: a form is refused too (only POST /Token takes one).'),
  500: problemRef('System error; the body names a requestId.'),
};

export const tenantHeader = Type.Object({
  'X-Tenant': Type.String({ description: 'Tenant code assigned by the service operator.' }),
});

export function envelope(dataset: DatasetDef, mode: 'upsert' | 'delete'): TSchema {
  const record = mode === 'delete' ? deleteRecordSchema(dataset) : dataset.record;
  return Type.Object(
    { [dataset.envelope]: Type.Array(record) },
    {
      description:
        mode === 'delete'
          ? `The ${dataset.envelope} to soft-delete, by key.`
          : `One object holding the array "${dataset.envelope}". Upsert on ${dataset.key.join(' + ')}: ` +
            `a record sent again replaces the stored one whole.`,
    },
  );
}

export const noContent = { description: 'OK; upsert calls answer with no body.', type: 'null' };

export const TransferSchema = Type.Object(
  {
    fromLocationId: Type.String(),
    toLocationId: Type.String(),
    skuId: Type.String(),
    quantity: Type.Number(),
    referenceId: Type.String({ description: 'Unique id of the transfer; clients use it to avoid duplicates.' }),
    approvalBatchId: Type.String({ description: 'Shared by all transfers approved by one user action.' }),
    fromLocationGLN: Type.Union([Type.String(), Type.Null()]),
    toLocationGLN: Type.Union([Type.String(), Type.Null()]),
    transferType: Type.Union(TRANSFER_TYPES.map((t) => Type.Literal(t))),
    approvalBatchDescription: Type.Optional(Type.String()),
    plannedDispatchDate: Type.Optional(Type.String({ format: 'date' })),
  },
  { title: 'Transfer' },
);

/** A page of a recommendation list, paged with Offset and Limit like the transfers. */
const pageSchema = <K extends string>(key: K, items: TSchema) =>
  Type.Object({
    [key]: Type.Array(items),
    offset: Type.Integer(),
    limit: Type.Integer(),
    moreRecordsAvailable: Type.Boolean(),
  });

export const TransfersPage = pageSchema('transfers', TransferSchema);
export const ProductDescriptionsPage = pageSchema('productDescriptions', ProductDescriptionSchema);
export const ProductTagsPage = pageSchema('tags', ProductTagCountSchema);

export const TokenRequest = Type.Object(
  {
    grant_type: Type.Literal('client_credentials'),
    client_id: Type.String(),
    client_secret: Type.String(),
  },
  { description: 'OAuth2 client credentials, as application/x-www-form-urlencoded or JSON.' },
);

export const TokenResponse = Type.Object(
  {
    access_token: Type.String(),
    token_type: Type.Literal('Bearer'),
    expires_in: Type.Integer({ description: 'Seconds the token is valid.' }),
  },
  { description: 'A bearer token; never cached on the way (RFC 6749 §5.1).' },
);

/** The token answer's headers, for the document (every answer of POST /Token carries them). */
export const TOKEN_HEADERS = {
  'Cache-Control': { type: 'string', description: 'no-store: an answer holding a token is never cached.' },
  Pragma: { type: 'string', description: 'no-cache, for HTTP/1.0 caches.' },
};
