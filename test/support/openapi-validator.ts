import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// Validates responses against the served OpenAPI document with a JSON Schema 2020-12
// validator: the path template and method pick the operation, status and media type pick
// the schema. Responses from paths no operation matches (404/405 under /api/) use the
// Error schema, as the document's description says.

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

type Operation = {
  parameters?: Array<{ name: string; in: string }>;
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
};
type OpenApiDocument = { paths: Record<string, Record<string, Operation>> };

interface ResponseCheck {
  /** The operation's path template, or undefined when no operation matches. */
  template: string | undefined;
  errors: string[];
}

export interface ResponseValidator {
  /** `body` undefined means none was received (HEAD, 304): only status and media type are checked. */
  check(method: string, path: string, status: number, contentType: string | null, body: unknown): ResponseCheck;
}

const documentId = 'https://crucible.test/openapi.json';

export function createResponseValidator(document: unknown): ResponseValidator {
  const doc = document as OpenApiDocument;
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema({ ...(document as object), $id: documentId });
  const compiled = new Map<string, ValidateFunction>();
  const validatorAt = (pointer: string[]) => {
    const ref = `${documentId}#/${pointer.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/')}`;
    let validate = compiled.get(ref);
    if (!validate) compiled.set(ref, (validate = ajv.compile({ $ref: ref })));
    return validate;
  };

  const templates = Object.entries(doc.paths).map(([template, item]) => {
    const names = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    const [method, operation] = Object.entries(item)[0]!;
    const index = (name: string) => (operation.parameters ?? []).findIndex((p) => p.in === 'path' && p.name === name);
    return {
      template,
      literal: names.length === 0,
      pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '([^/]+)')}$`),
      // Each path parameter must satisfy its schema for the template to match (e.g. the locale enum).
      params: names.map((name) => ({ name, pointer: ['paths', template, method, 'parameters', String(index(name)), 'schema'] })),
    };
  });
  const isApi = (path: string) => path === '/api' || path.startsWith('/api/') || path === '/openapi.json';
  // Concrete paths win over templated ones (OpenAPI 3.1, Paths Object); among templated ones,
  // one whose parameters satisfy their schemas (the locale enum), else one of the same family
  // (/api or site), since an operation may answer its own invalid parameters (unknown faucet).
  const templateOf = (path: string) => {
    const family = templates.filter((t) => isApi(t.template) === isApi(path));
    const literal = family.find((t) => t.literal && t.template === path);
    if (literal) return literal.template;
    const matching = family.filter((t) => !t.literal && t.pattern.test(path));
    const valid = matching.find((t) => {
      const values = t.pattern.exec(path)!;
      return t.params.every((param, i) => validatorAt(param.pointer)(safeDecode(values[i + 1]!)));
    });
    return (valid ?? matching[0])?.template;
  };

  return {
    check(method, path, status, contentType, body) {
      const template = templateOf(path);
      const operation = template ? doc.paths[template]?.[method.toLowerCase()] : undefined;
      const mediaType = (contentType ?? '').split(';')[0]!.trim();
      let pointer: string[];
      if (!operation) {
        // Unmatched /api paths (404) and other methods on known ones (405) answer Error.
        if (!isApi(path)) return { template, errors: [`no operation for ${method} ${path}`] };
        if (status !== 404 && status !== 405 && status !== 400) return { template, errors: [`status ${status} without an operation`] };
        pointer = ['components', 'schemas', 'Error'];
      } else {
        const response = operation.responses[String(status)];
        if (!response) return { template, errors: [`status ${status} is not documented for ${method} ${template}`] };
        if (!response.content) return { template, errors: body === undefined || body === '' ? [] : [`${status} documents no body`] };
        if (!response.content[mediaType]) return { template, errors: [`${mediaType} is not documented for ${status} of ${method} ${template}`] };
        if (!response.content[mediaType].schema || body === undefined) return { template, errors: [] };
        pointer = ['paths', template!, method.toLowerCase(), 'responses', String(status), 'content', mediaType, 'schema'];
      }
      if (body === undefined) return { template, errors: [] };
      const validate = validatorAt(pointer);
      return { template, errors: validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`) };
    },
  };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
