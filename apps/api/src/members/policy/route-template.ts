const TEMPLATES = new Map<string, string>();

/**
 * A route's template as the OpenAPI document writes it, from Fastify's: `/projects/:projectId`
 * becomes `/projects/{projectId}` (the policy and the document name operations alike).
 */
export function documentedTemplate(fastifyUrl: string): string {
  let template = TEMPLATES.get(fastifyUrl);
  if (template === undefined) {
    template = fastifyUrl.replace(/:(\w+)/g, '{$1}');
    TEMPLATES.set(fastifyUrl, template);
  }
  return template;
}
