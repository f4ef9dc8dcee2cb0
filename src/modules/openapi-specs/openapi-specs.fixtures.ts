import http from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * Spec documents for tests, the browser test and the bench, and a stand-in HTTP server on
 * 127.0.0.1 that serves them (a path that never answers, one that answers 404).
 */

export const ORDERS_30_YAML = `openapi: 3.0.3
info:
  title: Orders API
  version: "1.0"
  description: Manage **orders**.
servers:
  - url: https://api.example.com/v1
components:
  securitySchemes:
    bearer:
      type: http
      scheme: bearer
  schemas:
    Address:
      type: object
      description: Where the order is shipped.
      required: [street, city]
      properties:
        street: { type: string, description: Street and number, example: 1 Main St }
        city: { type: string, description: City name }
    Order:
      type: object
      required: [id, status]
      properties:
        id: { type: string, description: The order's id, example: ord_123 }
        status: { type: string, enum: [open, shipped, cancelled], default: open, description: Where the order is }
        shipping:
          $ref: '#/components/schemas/Address'
        payment:
          description: How it is paid
          oneOf:
            - type: object
              title: Card
              properties: { last4: { type: string } }
            - type: object
              title: Invoice
              properties: { dueDays: { type: integer } }
security:
  - bearer: []
paths:
  /orders/{orderId}:
    parameters:
      - name: orderId
        in: path
        required: true
        description: Identifier of the order to change
        schema: { type: string }
    patch:
      operationId: updateOrder
      summary: Update an order
      description: Changes the *status* or the shipping address of an order.
      tags: [orders]
      parameters:
        - name: notify
          in: query
          description: Whether to email the customer
          schema: { type: boolean, default: false }
        - name: X-Request-Id
          in: header
          description: Idempotency key of the request
          schema: { type: string }
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              properties:
                status: { type: string, enum: [open, shipped, cancelled], description: The new status }
                shipping:
                  $ref: '#/components/schemas/Address'
      responses:
        "200":
          description: The updated order
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Order' }
        "404":
          description: No such order
    get:
      operationId: getOrder
      summary: Get an order
      deprecated: true
      responses:
        "200":
          description: The order
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Order' }
webhooks: {}
`.replace('webhooks: {}\n', '');

export const PETS_31_JSON = JSON.stringify(
  {
    openapi: '3.1.0',
    info: { title: 'Pets', version: '2.0' },
    paths: {
      '/pets': {
        get: {
          summary: 'List pets',
          parameters: [{ name: 'limit', in: 'query', schema: { type: ['integer', 'null'] } }],
          responses: { '200': { description: 'Pets', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Pet' } } } } } },
        },
      },
    },
    webhooks: {
      newPet: {
        post: {
          summary: 'A pet was added',
          requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } },
          responses: { '200': { description: 'Received' } },
        },
      },
    },
    components: { schemas: { Pet: { type: 'object', properties: { name: { type: 'string' }, tag: { type: ['string', 'null'] } } } } },
  },
  null,
  2,
);

export const USERS_SWAGGER_20_YAML = `swagger: "2.0"
info: { title: Users, version: "1" }
host: users.example.com
basePath: /api
schemes: [https]
paths:
  /users:
    post:
      summary: Create a user
      consumes: [application/json]
      parameters:
        - in: body
          name: body
          required: true
          schema: { $ref: '#/definitions/User' }
      responses:
        "201": { description: Created, schema: { $ref: '#/definitions/User' } }
definitions:
  User:
    type: object
    properties:
      email: { type: string, format: email }
`;

/** A spec in three files: paths and schemas referenced relatively, one from a subfolder. */
export const MULTI_FILE = {
  'api/openapi.yaml': `openapi: 3.0.3
info: { title: Split, version: "1" }
paths:
  /items:
    $ref: './paths/items.yaml'
`,
  'api/paths/items.yaml': `get:
  summary: List items
  responses:
    "200":
      description: Items
      content:
        application/json:
          schema:
            $ref: '../schemas/item.yaml#/Item'
`,
  'api/schemas/item.yaml': `Item:
  type: object
  properties:
    name: { type: string, description: Name of the item }
    price: { $ref: '#/Money' }
Money:
  type: number
  description: Price in euros
`,
};

export const UNPARSABLE = 'openapi: 3.0.3\ninfo: {title: broken\n  paths: [\n';

/** A valid 3.0 spec of about `bytes` bytes (many operations), for the bench. */
export function largeSpec(bytes: number): string {
  const lines = [ORDERS_30_YAML.trimEnd()];
  for (let i = 0; lines.join('\n').length < bytes; i++) {
    lines.push(`  /things${i}/{thingId}:
    get:
      operationId: getThing${i}
      summary: Get thing ${i}
      description: Returns thing number ${i} with all of its fields, for callers that need them.
      parameters:
        - { name: thingId, in: path, required: true, description: The thing's id, schema: { type: string } }
      responses:
        "200":
          description: The thing
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Order' }`);
  }
  return `${lines.join('\n')}\n`;
}

export interface SpecServer {
  url: string;
  /** path -> body (status 200), or a status number. */
  files: Map<string, string | number>;
  requests: string[];
  close(): Promise<void>;
}

/** Serves `files`; `/hang/...` accepts the request and never answers. */
export async function startSpecServer(initial: Record<string, string | number> = {}): Promise<SpecServer> {
  const files = new Map(Object.entries(initial));
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).slice(1);
    requests.push(path);
    if (path.startsWith('hang/')) return; // never answers
    const file = files.get(path);
    if (file === undefined || typeof file === 'number') {
      res.writeHead(typeof file === 'number' ? file : 404, { 'content-type': 'text/plain' }).end('not here');
      return;
    }
    res.writeHead(200, { 'content-type': path.endsWith('.json') ? 'application/json' : 'application/yaml' }).end(file);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    files,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
