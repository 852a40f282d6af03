/**
 * API documentation: the OpenAPI 3 document (generated from the route schemas, so it always
 * reflects the current surface) at /openapi.json, Swagger UI at /docs and ReDoc at /redoc. ReDoc is
 * served from its npm bundle (less its CDN-loaded branding, see redoc-bundle.ts), never a CDN, so
 * neither page reaches another host and both work offline. A named plugin, registered
 * before any route so that every route reaches the document.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { finishOpenApiDocument } from './openapi-document.js';
import { loadRedocBundle } from './redoc-bundle.js';
import { StateNodeSchema } from './statecharts/schemas.js';
import { ErrorSchema } from './schemas.js';

export const API_TITLE = 'Trading Control Service';

async function docs(app: FastifyInstance, { version }: { version: string }): Promise<void> {
  app.addSchema(ErrorSchema);
  app.addSchema(StateNodeSchema);
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: API_TITLE,
        version,
        description:
          // Markdown: code spans keep `<SERVICE_API_KEY>` text (bare, ReDoc takes it for an HTML tag).
          'Control plane of the automated trading process. Public: `/health`, `/metrics`, docs. ' +
          'Authenticated (`Authorization: Bearer <SERVICE_API_KEY>`): `/control/*` and `/reports/*`.',
      },
      tags: [
        { name: 'public', description: 'No authentication' },
        { name: 'control', description: 'Run state and prepared instructions' },
        { name: 'reports', description: 'The decision log' },
      ],
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'SERVICE_API_KEY' } },
      },
    },
    // The route schemas are written for Ajv (draft-07); this makes the generated document valid 3.0.3.
    transformObject: (generated) => finishOpenApiDocument('openapiObject' in generated ? generated.openapiObject : {}),
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { tryItOutEnabled: true, persistAuthorization: false },
  });

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  const bundle = loadRedocBundle();
  app.get('/redoc/redoc.standalone.js', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('application/javascript; charset=utf-8').header('Cache-Control', 'public, max-age=86400').send(bundle),
  );
  app.get('/redoc', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(REDOC_PAGE),
  );
}

export const docsPlugin = fp(docs, { name: 'tcs-docs', fastify: '5.x' });

const REDOC_PAGE = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>${API_TITLE} — reference</title>
    <meta name="viewport" content="width=device-width, initial-scale=1">
  </head>
  <body>
    <redoc spec-url="/openapi.json"></redoc>
    <script src="/redoc/redoc.standalone.js"></script>
  </body>
</html>
`;
