import { z } from 'zod';
import type { DescribedOperation, ResponseSpec } from './operation.ts';

// The OpenAPI 3.1.0 document (docs/website.md#openapi-document), generated from the operation registry and the
// same zod schemas the router validates with. zod emits JSON Schema draft 2020-12, the
// dialect of OpenAPI 3.1, so schemas go in unchanged apart from their `$schema`/`$id`.

type JsonSchema = Record<string, unknown>;

export interface OpenApiInput {
  origin: string;
  /** Named schemas, emitted under `#/components/schemas/<name>` and referenced by `$ref`. */
  components: Record<string, z.ZodType>;
  operations: readonly DescribedOperation[];
  tags: Array<{ name: string; description: string }>;
  description: string;
}

const inlinePrefix = '__inline_';

/** The site's OpenAPI document: the `documentation_url` of the site API's Error bodies. */
export function documentationUrlOf(origin: string): string {
  return new URL('/openapi.json', origin).href;
}

export function buildOpenApiDocument(input: OpenApiInput): JsonSchema {
  const registry = z.registry<{ id: string }>();
  const componentIds = new Map<z.ZodType, string>();
  for (const [name, schema] of Object.entries(input.components)) {
    if (componentIds.has(schema)) throw new Error(`schema registered twice: ${componentIds.get(schema)} and ${name}`);
    componentIds.set(schema, name);
    registry.add(schema, { id: name });
  }
  // Operation-level schemas that are not components are converted in the same pass, so their
  // references to components come out as `$ref`s, then inlined where they are used.
  const inlineIds = new Map<z.ZodType, string>();
  const use = (schema: z.ZodType) => {
    if (componentIds.has(schema) || inlineIds.has(schema)) return;
    const id = `${inlinePrefix}${inlineIds.size}`;
    inlineIds.set(schema, id);
    registry.add(schema, { id });
  };
  for (const operation of input.operations) forEachSchema(operation, use);

  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    unrepresentable: 'throw',
    uri: (id) => `#/components/schemas/${id}`,
  });
  const emitted = (id: string): JsonSchema => {
    const { $schema: _dialect, $id: _id, ...schema } = schemas[id] as JsonSchema;
    return schema;
  };
  const ref = (schema: z.ZodType): JsonSchema => {
    const component = componentIds.get(schema);
    return component ? { $ref: `#/components/schemas/${component}` } : emitted(inlineIds.get(schema)!);
  };

  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of input.operations) {
    const item = (paths[operation.path] ??= {});
    const method = operation.method.toLowerCase();
    if (item[method]) throw new Error(`two operations for ${operation.method} ${operation.path}`);
    item[method] = describeOperation(operation, ref);
  }

  const document = {
    openapi: '3.1.0',
    info: {
      title: 'Crucible website API',
      version: '1.0.0',
      description: input.description,
      license: { name: 'Proprietary', url: new URL('/terms-conditions/', input.origin).href },
    },
    servers: [{ url: input.origin }],
    // docs/website.md#openapi-document: no website endpoint needs a credential.
    security: [],
    tags: input.tags,
    paths,
    components: {
      schemas: Object.fromEntries([...componentIds.values()].map((name) => [name, emitted(name)])),
    },
  };
  const text = JSON.stringify(document);
  if (text.includes(`/${inlinePrefix}`)) {
    throw new Error('an operation-level schema is nested in another schema; register it in componentSchemas()');
  }
  return document;
}

function describeOperation(operation: DescribedOperation, ref: (schema: z.ZodType) => JsonSchema): JsonSchema {
  const parameters = [...parametersOf(operation.params, 'path', ref), ...parametersOf(operation.query, 'query', ref)];
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    tags: operation.tags,
    ...(parameters.length ? { parameters } : {}),
    ...(operation.body
      ? {
          requestBody: {
            required: true,
            ...(operation.body.description ? { description: operation.body.description } : {}),
            content: { 'application/json': { schema: ref(operation.body.schema) } },
          },
        }
      : {}),
    responses: Object.fromEntries(Object.entries(operation.responses).map(([status, spec]) => [status, describeResponse(spec, ref)])),
  };
}

function parametersOf(object: z.ZodObject | undefined, location: 'path' | 'query', ref: (schema: z.ZodType) => JsonSchema): JsonSchema[] {
  if (!object) return [];
  return Object.entries(object.shape).map(([name, schema]) => {
    const member = schema as z.ZodType;
    return {
      name,
      in: location,
      required: location === 'path' || !member.safeParse(undefined).success,
      ...(member.description ? { description: member.description } : {}),
      schema: ref(member),
    };
  });
}

function describeResponse(spec: ResponseSpec, ref: (schema: z.ZodType) => JsonSchema): JsonSchema {
  return {
    description: spec.description,
    ...(spec.headers
      ? {
          headers: Object.fromEntries(
            Object.entries(spec.headers).map(([name, header]) => [name, { description: header.description, schema: ref(header.schema) }]),
          ),
        }
      : {}),
    ...(spec.content
      ? {
          content: Object.fromEntries(Object.entries(spec.content).map(([mediaType, schema]) => [mediaType, schema ? { schema: ref(schema) } : {}])),
        }
      : {}),
  };
}

function forEachSchema(operation: DescribedOperation, visit: (schema: z.ZodType) => void): void {
  for (const object of [operation.params, operation.query]) {
    if (object) for (const member of Object.values(object.shape)) visit(member as z.ZodType);
  }
  if (operation.body) visit(operation.body.schema);
  for (const response of Object.values(operation.responses)) {
    for (const header of Object.values(response.headers ?? {})) visit(header.schema);
    for (const schema of Object.values(response.content ?? {})) if (schema) visit(schema);
  }
}
