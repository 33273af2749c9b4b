import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * Holds every response the e2e suite receives to the OpenAPI document the application serves:
 * the status must be documented for the operation (method + path template), the content type
 * must be one the document names for that status (none for a body-less answer), the body must
 * match its schema and the required headers must be there and match theirs. A request that
 * reaches no operation must get the documented 404 problem. So the document cannot drift from
 * the behaviour without some test failing.
 */

type Json = Record<string, any>;

export interface ObservedResponse {
  method: string;
  url: string;
  status: number;
  headers: Record<string, string | undefined>;
  text: string;
}

const DOCUMENT_PATH = '/docs/openapi.json';
const DOCUMENT_ID = 'openapi.json';
const JSON_TYPES = /^application\/(?:[\w.+-]+\+)?json$/;

interface Operation {
  template: string;
  segments: string[];
  method: string;
  responses: Json;
}

class ResponseValidator {
  private readonly ajv = new Ajv({
    strict: false,
    allErrors: true,
    validateSchema: false,
    // Each referenced schema compiled once and shared: markedly faster to compile.
    inlineRefs: false,
  });
  private readonly operations: Operation[] = [];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(document: Json) {
    addFormats(this.ajv);
    this.ajv.addSchema({ components: document.components }, DOCUMENT_ID);
    for (const [template, item] of Object.entries<Json>(document.paths)) {
      for (const [method, operation] of Object.entries<Json>(item)) {
        this.operations.push({
          template,
          segments: template.split('/').slice(1),
          method: method.toUpperCase(),
          responses: operation.responses,
        });
      }
    }
  }

  /** What is wrong with the response, one sentence per problem; empty when it is documented. */
  check(response: ObservedResponse): string[] {
    const method = response.method.toUpperCase();
    const path = new URL(response.url, 'http://localhost').pathname;
    // CORS preflights and the explorer itself are not operations of the API.
    if (method === 'OPTIONS' || path === '/docs' || path.startsWith('/docs/')) return [];
    const candidates = this.operationsFor(path);
    const operation = candidates.find(
      (candidate) =>
        candidate.method === method || (method === 'HEAD' && candidate.method === 'GET'),
    );
    if (operation === undefined) return this.checkUnknownRoute(response);

    const documented = operation.responses[String(response.status)] as Json | undefined;
    const where = `${operation.method} ${operation.template}`;
    if (documented === undefined) {
      return [
        `status ${response.status} is not documented for ${where} (documented: ` +
          `${Object.keys(operation.responses).join(', ')})`,
      ];
    }
    const problems = this.checkHeaders(documented, response, where);
    if (method === 'HEAD') return problems;
    return [...problems, ...this.checkBody(documented, response, where)];
  }

  private operationsFor(path: string): Operation[] {
    const segments = path.replace(/\/+$/, '').split('/').slice(1);
    const literals = (operation: Operation) =>
      operation.segments.filter((segment) => !segment.startsWith('{')).length;
    return this.operations
      .filter(
        (operation) =>
          operation.segments.length === segments.length &&
          operation.segments.every(
            (segment, index) =>
              segment === segments[index] || (segment.startsWith('{') && segments[index] !== ''),
          ),
      )
      .sort((a, b) => literals(b) - literals(a));
  }

  private checkUnknownRoute(response: ObservedResponse): string[] {
    const where = `${response.method} ${response.url} (no operation)`;
    if (response.status !== 404) {
      return [`${where} answered ${response.status}; an unknown route must answer 404`];
    }
    return this.checkBody(
      {
        content: {
          'application/problem+json': {
            schema: {
              allOf: [{ $ref: '#/components/schemas/ProblemDetailsResponse' }],
              properties: { type: { enum: ['/problems/not-found'] } },
            },
          },
        },
      },
      response,
      where,
    );
  }

  private checkHeaders(documented: Json, response: ObservedResponse, where: string): string[] {
    const problems: string[] = [];
    for (const [name, header] of Object.entries<Json>(documented.headers ?? {})) {
      const value = response.headers[name.toLowerCase()];
      if (value === undefined) {
        if (header.required === true) {
          problems.push(`${where} ${response.status} lacks the required header ${name}`);
        }
        continue;
      }
      const schema = (header.schema ?? {}) as Json;
      const typed = ['integer', 'number'].includes(schema.type) && /^-?\d+(\.\d+)?$/.test(value);
      const validate = this.validator(schema);
      if (!validate(typed ? Number(value) : value)) {
        problems.push(`${where} ${response.status} header ${name}: ${this.describe(validate)}`);
      }
    }
    return problems;
  }

  private checkBody(documented: Json, response: ObservedResponse, where: string): string[] {
    const content = (documented.content ?? {}) as Json;
    const contentType = response.headers['content-type']?.split(';')[0].trim().toLowerCase();
    const status = response.status;
    if (Object.keys(content).length === 0) {
      return response.text === ''
        ? []
        : [`${where} ${status} is documented without a body, but one came (${contentType})`];
    }
    if (contentType === undefined || content[contentType] === undefined) {
      return [
        `${where} ${status} came as ${contentType ?? 'no content type'}; documented: ` +
          Object.keys(content).join(', '),
      ];
    }
    if (!JSON_TYPES.test(contentType)) return [];
    let body: unknown;
    try {
      body = JSON.parse(response.text);
    } catch {
      return [`${where} ${status}: the body is not JSON: ${response.text.slice(0, 200)}`];
    }
    const schema = (content[contentType].schema ?? {}) as Json;
    const validate = this.validator(schema);
    return validate(body) ? [] : [`${where} ${status} body: ${this.describe(validate)}`];
  }

  /**
   * References in the document point into it; compiled schemas point to the registered copy.
   * Compiled once per distinct schema: most operations share their problem responses.
   */
  private validator(schema: Json): ValidateFunction {
    const text = JSON.stringify(schema).replace(
      /"#\/components\//g,
      `"${DOCUMENT_ID}#/components/`,
    );
    let validate = this.compiled.get(text);
    if (validate === undefined) {
      validate = this.ajv.compile(JSON.parse(text) as Json);
      this.compiled.set(text, validate);
    }
    return validate;
  }

  private describe(validate: ValidateFunction): string {
    return this.ajv.errorsText(validate.errors, { separator: '; ', dataVar: 'response' });
  }
}

const validators = new Map<string, Promise<ResponseValidator>>();

async function load(baseUrl: string): Promise<ResponseValidator> {
  const response = await fetch(`${baseUrl}${DOCUMENT_PATH}`);
  if (response.status !== 200) {
    throw new Error(`${DOCUMENT_PATH} answered ${response.status}: ${await response.text()}`);
  }
  return new ResponseValidator((await response.json()) as Json);
}

function validatorFor(baseUrl: string): Promise<ResponseValidator> {
  let validator = validators.get(baseUrl);
  if (validator === undefined) {
    validator = load(baseUrl);
    // A failed load is retried by the next request rather than remembered.
    const loading = validator;
    loading.catch(() => {
      if (validators.get(baseUrl) === loading) validators.delete(baseUrl);
    });
    validators.set(baseUrl, validator);
  }
  return validator;
}

/**
 * A check for the response to a request about to be sent: the application's document is fetched
 * (once per application) alongside the request, not after it, so that a request racing the
 * server's shutdown still finds the document. The check throws, naming every mismatch, when the
 * response is not what the served document promises.
 */
export function documentedResponseCheck(
  baseUrl: string,
): (response: ObservedResponse) => Promise<void> {
  const validator = validatorFor(baseUrl);
  validator.catch(() => undefined); // reported when the check is awaited
  return async (response) => {
    const problems = (await validator).check(response);
    if (problems.length > 0) {
      throw new Error(
        `The response to ${response.method} ${response.url} (${response.status}) contradicts ` +
          `the OpenAPI document:\n- ${problems.join('\n- ')}\nBody: ${response.text.slice(0, 500)}`,
      );
    }
  };
}

/** Checks one response against the document the application at `baseUrl` serves. */
export function assertDocumentedResponse(
  baseUrl: string,
  response: ObservedResponse,
): Promise<void> {
  return documentedResponseCheck(baseUrl)(response);
}
