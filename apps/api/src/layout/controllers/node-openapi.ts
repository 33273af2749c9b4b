import { applyDecorators, type Type } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { type DocumentedProblemKind } from '../../openapi/problems';
import {
  ApiChangedResponse,
  ApiCreatedJsonResponse,
  ApiDeletedResponse,
  ApiIdempotencyKey,
  ApiMovedResponse,
  ApiOptionalBody,
  ApiProblems,
  ApiTaggedRead,
  BODY_PROBLEMS,
} from '../../openapi/decorators';

// The OpenAPI description of each kind of operation on a node of the tree, the same at every
// level: a controller says only what differs (its texts, its DTOs, its examples and the problems
// beyond a body's), and keeps its routes, statuses and guards in sight. Each is named Api…Response
// for the swagger CLI plugin, which then adds no success response of its own (decorators.ts).

/** What a controller says of one of its routes. */
export interface NodeRoute {
  readonly summary: string;
  readonly description: string;
  /** The answer's type, its example and what it says of it. */
  readonly response: Type;
  readonly example: unknown;
  readonly returns: string;
  /** Problems beyond those of every operation (and of a body, for a write with one). */
  readonly problems?: readonly DocumentedProblemKind[];
  /** The body, when it may be left out. */
  readonly optionalBody?: Type;
}

/** `decorators` as they would stand above a method, top to bottom (applied bottom up). */
const stacked = (...decorators: (MethodDecorator | ClassDecorator)[]) =>
  applyDecorators(...decorators.reverse());

const operation = ({ summary, description }: NodeRoute) => ApiOperation({ summary, description });

const optionalBody = ({ optionalBody: body }: NodeRoute) => (body ? [ApiOptionalBody(body)] : []);

/** A create or a copy: 201 and `Location`, `Idempotency-Key`. */
export const ApiNodeCreatedResponse = (route: NodeRoute) =>
  stacked(
    ApiIdempotencyKey(),
    operation(route),
    ...optionalBody(route),
    ApiCreatedJsonResponse(route.response, route.example, route.returns),
    ApiProblems(...BODY_PROBLEMS, ...(route.problems ?? [])),
  );

/** A parent's children, tagged. */
export const ApiNodeListResponse = (route: NodeRoute) =>
  stacked(
    operation(route),
    ApiTaggedRead([route.response], [route.example], route.returns),
    ApiProblems('notFound'),
  );

/** A node, tagged. */
export const ApiNodeReadResponse = (route: NodeRoute) =>
  stacked(
    operation(route),
    ApiTaggedRead(route.response, route.example, route.returns),
    ApiProblems('notFound'),
  );

/** An update: the node, with its tag. */
export const ApiNodeChangedResponse = (route: NodeRoute) =>
  stacked(
    operation(route),
    ApiChangedResponse(route.response, route.example, route.returns),
    ApiProblems(...BODY_PROBLEMS, ...(route.problems ?? [])),
  );

/** A delete: 204. */
export const ApiNodeDeletedResponse = (route: Omit<NodeRoute, 'response' | 'example'>) =>
  stacked(
    ApiOperation({ summary: route.summary, description: route.description }),
    ApiDeletedResponse(route.returns),
    ApiProblems('notFound'),
  );

/** A move: 200 and `Location`, `Idempotency-Key`. */
export const ApiNodeMovedResponse = (route: NodeRoute) =>
  stacked(
    ApiIdempotencyKey(),
    operation(route),
    ...optionalBody(route),
    ApiMovedResponse(route.response, route.example, route.returns),
    ApiProblems(...BODY_PROBLEMS, ...(route.problems ?? [])),
  );
