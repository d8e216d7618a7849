/**
 * The admin API's contract (docs/design.md §2): each route is its method and path, TypeBox schemas of what it takes
 * and answers, and the one call into the service that answers it. The server registers the routes from these tables
 * (validating every part), the OpenAPI document describes them, and the renderer's client is typed from them.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest, onResponseHookHandler } from 'fastify';
import type { ArrowTable } from '../arrow.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** A route's key in its table: `GET /backtests/:runId`. */
export type RouteKey = `${Method} /${string}`;

type Part<S> = S extends TSchema ? Static<S> : undefined;

/** What a handler is given, each part validated against its schema (query names in their canonical case). */
export interface RouteInput<P, Q, B> {
  params: Part<P>;
  query: Part<Q>;
  body: Part<B>;
}

/** What every handler may reach beside its input: the request and reply, for the few that answer other than JSON. */
export interface Exchange {
  req: FastifyRequest;
  reply: FastifyReply;
}

export interface AdminRoute<
  C,
  P extends TSchema | undefined = undefined,
  Q extends TSchema | undefined = undefined,
  B extends TSchema | undefined = undefined,
  R extends TSchema = TSchema,
  A extends ArrowTable | undefined = undefined,
> {
  summary: string;
  /** Path parameters, by name as the path spells them (`*` for a path's rest). */
  params?: P;
  /** Query parameters: matched case-insensitively, converted from text to the schema's types. */
  query?: Q;
  body?: B;
  /** No body at all reads as `{}`: the route's options all take their defaults. A JSON `null` is still refused. */
  bodyOptional?: boolean;
  response: R;
  /** The status of a success when it is not 200: 202 for work started in the background, answered by its job. */
  status?: 202;
  /**
   * The answer holds a table that travels as an Arrow IPC stream when the client asks for one (`Accept`): which
   * field holds its rows, and their columns. The handler answers JSON either way.
   */
  arrow?: A;
  bodyLimit?: number;
  /** `secret`: the request log keeps neither its query nor its body; `quiet`: it keeps no entry at all. */
  audit?: 'secret' | 'quiet';
  onResponse?: onResponseHookHandler;
  handle(input: RouteInput<P, Q, B>, ctx: C & Exchange): Promise<Static<R> | FastifyReply>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRoute<C = any> = AdminRoute<C, any, any, any, any, any>;
export type RouteTable<C> = Record<RouteKey, AnyRoute<C>>;

/** A typed route definition for handlers that reach the context `C`: its schemas type its handler's input. */
export function routeFor<C>() {
  return <
    P extends TSchema | undefined = undefined,
    Q extends TSchema | undefined = undefined,
    B extends TSchema | undefined = undefined,
    R extends TSchema = TSchema,
    A extends ArrowTable | undefined = undefined,
  >(
    def: AdminRoute<C, P, Q, B, R, A>,
  ): AdminRoute<C, P, Q, B, R, A> => def;
}

/**
 * An answer typed by the engine's own result type and named in the OpenAPI document. Those types are the single
 * source of the answers' fields; the document describes them by name and summary, not field by field.
 */
export function answer<T>(title: string, description: string) {
  return Type.Unsafe<T>({ type: 'object', title, description });
}

/** The client's view of a route: what a call passes (only the parts the route has) and what it gets back. */
export type CallInput<R> =
  R extends AdminRoute<infer _C, infer P, infer Q, infer B, infer _R, infer _A>
    ? (P extends TSchema ? { params: Static<P> } : unknown) &
        (Q extends TSchema ? (object extends Static<Q> ? { query?: Static<Q> } : { query: Static<Q> }) : unknown) &
        (B extends TSchema ? { body: Static<B> } : unknown)
    : never;
export type CallReply<R> =
  R extends AdminRoute<infer _C, infer _P, infer _Q, infer _B, infer S, infer _A> ? Static<S> : never;
