import {
  Body,
  Delete,
  Get,
  HttpCode,
  Injectable,
  Param,
  Post,
  Put,
  type Type,
} from '@nestjs/common';
import { type AuthenticatedAccount } from '../../common/auth/authenticated-account';
import { ConditionalWrite } from './conditional-write.decorator';
import { CurrentAccount } from '../../common/decorators/current-account.decorator';
import { Idempotency, type IdempotencyRequest } from '../../common/http/idempotency';
import { Conditions, type RequestConditions } from '../../common/http/request-conditions';
import { type Representation } from '../../common/http/representation';
import { type ChildLevel, TREE_LEVELS } from '../repositories/sql/tree-levels';
import { NodesService } from '../services/nodes.service';
import {
  ApiNodeChangedResponse,
  ApiNodeCreatedResponse,
  ApiNodeDeletedResponse,
  ApiNodeListResponse,
  ApiNodeMovedResponse,
  ApiNodeReadResponse,
  type NodeRoute,
} from './node-openapi';

// The routes of a node of the tree are the same at every level: create and list on the parent's
// list, read, update, delete, move and copy on the node, each one call into NodesService. A
// level's controller gives them as data (NodeRoutes): its DTOs, its examples and its texts. The
// routes are made here once, as Nest and the OpenAPI document read routes written by hand:
// each a method of the level's controller with its route, status, guards, documentation and
// parameters, and the parameters' types (which the validation pipe and the document read).

/** What a route's documentation says beyond what every route of its kind does. */
type RouteText = Omit<NodeRoute, 'response' | 'example' | 'optionalBody'> & {
  /** Its own example, when not the table's. */
  readonly example?: unknown;
  /** Whether its body may be left out. */
  readonly optionalBody?: true;
};

/** The routes of one level's controller, as data. */
export interface NodeRouteTable {
  readonly level: ChildLevel;
  /** The path parameters: of the parent (a create, a list) and of the node. */
  readonly paths: { readonly parent: Type; readonly node: Type };
  /** The request bodies, by operation. */
  readonly bodies: {
    readonly create: Type;
    readonly update: Type;
    readonly move: Type;
    readonly duplicate: Type;
  };
  /** The node's answer and its example (each route may give another). */
  readonly response: Type;
  readonly example: unknown;
  readonly create: RouteText;
  readonly list: RouteText;
  readonly retrieve: RouteText;
  readonly update: RouteText;
  readonly delete: RouteText;
  readonly move: RouteText;
  readonly duplicate: RouteText;
}

/**
 * What every node's controller has: the node service, which each route calls once. (Decorated
 * so that its constructor's parameter types are emitted, which the controllers inherit.)
 */
@Injectable()
export abstract class NodeController {
  constructor(protected readonly nodes: NodesService) {}
}

type Handler = (
  this: NodeController,
  ...args: [AuthenticatedAccount, object, ...unknown[]]
) => Promise<Representation<unknown>>;

/** A route: its decorators as they would stand above the method, its parameters and handler. */
interface RouteMethod {
  readonly decorators: (MethodDecorator | ClassDecorator)[];
  readonly parameters: [ParameterDecorator, Type][];
  readonly handler: Handler;
}

/** Makes the routes of `table` the methods of the controller it decorates. */
export function NodeRoutes(table: NodeRouteTable): ClassDecorator {
  return (controller) => {
    const { level, paths, bodies } = table;
    const node = `:${TREE_LEVELS[level].idParam}`;
    const doc = (text: RouteText, body?: Type): NodeRoute => ({
      ...text,
      response: table.response,
      example: text.example ?? table.example,
      optionalBody: text.optionalBody ? body : undefined,
    });
    const scope = (account: AuthenticatedAccount, path: object) => ({
      accountId: account.id,
      ...path,
    });
    const account: [ParameterDecorator, Type] = [CurrentAccount(), Object];
    const conditions: [ParameterDecorator, Type] = [Conditions(), Object];
    const idempotency: [ParameterDecorator, Type] = [Idempotency(), Object];
    const routes: Record<string, RouteMethod> = {
      create: {
        decorators: [
          Post(),
          HttpCode(201),
          ApiNodeCreatedResponse(doc(table.create, bodies.create)),
        ],
        parameters: [account, [Param(), paths.parent], [Body(), bodies.create], idempotency],
        handler(a, path, body, key) {
          return this.nodes.create(level, scope(a, path) as never, body as never, key as never);
        },
      },
      list: {
        decorators: [Get(), ApiNodeListResponse(doc(table.list))],
        parameters: [account, [Param(), paths.parent], conditions],
        handler(a, path, c) {
          return this.nodes.list(level, scope(a, path) as never, c as RequestConditions);
        },
      },
      retrieve: {
        decorators: [Get(node), ApiNodeReadResponse(doc(table.retrieve))],
        parameters: [account, [Param(), paths.node], conditions],
        handler(a, path, c) {
          return this.nodes.retrieve(level, scope(a, path) as never, c as RequestConditions);
        },
      },
      update: {
        decorators: [Put(node), ConditionalWrite(), ApiNodeChangedResponse(doc(table.update))],
        parameters: [account, [Param(), paths.node], [Body(), bodies.update], conditions],
        handler(a, path, body, c) {
          const changed = body as never;
          return this.nodes.update(level, scope(a, path) as never, changed, c as RequestConditions);
        },
      },
      delete: {
        decorators: [
          Delete(node),
          HttpCode(204),
          ConditionalWrite(),
          ApiNodeDeletedResponse(doc(table.delete)),
        ],
        parameters: [account, [Param(), paths.node], conditions],
        handler(a, path, c) {
          return this.nodes.delete(level, scope(a, path) as never, c as RequestConditions);
        },
      },
      move: {
        decorators: [
          Post(`${node}/move`),
          HttpCode(200),
          ConditionalWrite(),
          ApiNodeMovedResponse(doc(table.move, bodies.move)),
        ],
        parameters: [
          account,
          [Param(), paths.node],
          [Body(), bodies.move],
          conditions,
          idempotency,
        ],
        handler(a, path, body, c, key) {
          const moved = scope(a, path) as never;
          return this.nodes.move(level, moved, body as never, c as RequestConditions, key as never);
        },
      },
      duplicate: {
        decorators: [
          Post(`${node}/duplicate`),
          HttpCode(201),
          ConditionalWrite(),
          ApiNodeCreatedResponse(doc(table.duplicate, bodies.duplicate)),
        ],
        parameters: [
          account,
          [Param(), paths.node],
          [Body(), bodies.duplicate],
          conditions,
          idempotency,
        ],
        handler(a, path, body, c, key) {
          const copied = scope(a, path) as never;
          const request = key as IdempotencyRequest | undefined;
          return this.nodes.duplicate(
            level,
            copied,
            body as never,
            c as RequestConditions,
            request,
          );
        },
      },
    };
    for (const [name, route] of Object.entries(routes)) {
      defineRoute(controller.prototype as object, name, route);
    }
  };
}

/**
 * Defines `name` on `prototype` as a route, as TypeScript and the decorators would for a
 * method written in the class: the parameters' types (`design:paramtypes`, which the validation
 * pipe and the OpenAPI document read), the parameters' decorators, then the method's, bottom up.
 */
function defineRoute(prototype: object, name: string, route: RouteMethod): void {
  const { handler } = route;
  const method = function (this: NodeController, ...args: [AuthenticatedAccount, object]) {
    return handler.apply(this, args);
  };
  // Nest and the document name a route after its method's name (its operationId, its metadata).
  Object.defineProperty(method, 'name', { value: name });
  Object.defineProperty(prototype, name, { value: method, writable: true, configurable: true });
  Reflect.defineMetadata(
    'design:paramtypes',
    route.parameters.map(([, type]) => type),
    prototype,
    name,
  );
  Reflect.defineMetadata('design:returntype', Promise, prototype, name);
  route.parameters.forEach(([decorate], index) => decorate(prototype, name, index));
  const descriptor = Object.getOwnPropertyDescriptor(prototype, name)!;
  for (const decorate of [...route.decorators].reverse()) {
    (decorate as MethodDecorator)(prototype, name, descriptor);
  }
  Object.defineProperty(prototype, name, descriptor);
}
