import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';

// Checks a document against the OpenRPC meta-schema (@open-rpc/meta-schema).

// The package's types declare only the document's types; its runtime export is the meta-schema.
const { openrpcDocument: openRpcMetaSchema } = createRequire(import.meta.url)('@open-rpc/meta-schema') as { openrpcDocument: object };

// The meta-schema points its JSON Schemas at json-schema-tools' draft-07 meta-schema by URL; that
// package is not installed and nothing is fetched, so those references go to draft-07's own
// meta-schema, which ajv carries.
const metaSchema = JSON.parse(
  JSON.stringify(openRpcMetaSchema)
    .replaceAll('https://meta.json-schema.tools/#/definitions/JSONSchemaObject/properties/$ref', 'http://json-schema.org/draft-07/schema#/properties/$ref')
    .replaceAll('https://meta.json-schema.tools', 'http://json-schema.org/draft-07/schema#'),
);
delete metaSchema.$schema;

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats.default(ajv);

/** The meta-schema's validator; after a call, `.errors` says what failed. */
export const validateOpenRpc = ajv.compile(metaSchema);
