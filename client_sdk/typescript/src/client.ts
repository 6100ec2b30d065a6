/**
 * The HTTP client: openapi-fetch over the types generated from the server's `openapi.yaml`
 * (`src/openapi.ts`, `npm run generate`), with the player's token on every call.
 */
import createClient, { type Client } from "openapi-fetch";

import type { components, operations, paths } from "./openapi.js";

export type { components, operations, paths };

/** Every schema of the spec by name: `Schemas["Ladder"]`, `Schemas["Tournament"]`... */
export type Schemas = components["schemas"];
/** A seat's view of a game: one of the per-game views, narrowed on `view.game`. */
export type View = Schemas["View"];
export type ConcertoView = Schemas["ConcertoView"];
export type SecondsView = Schemas["SecondsView"];
export type CowpokeView = Schemas["CowpokeView"];
export type PinochleView = Schemas["PinochleView"];
/** A move of any game; a view's `legal_moves` holds its game's moves. */
export type Move = Schemas["Move"];
/** A game where the player is to act, with the seat's view. */
export type Turn = Schemas["Turn"];
/** The error body every refusal carries: `{ "error": { code, message, details } }`. */
export type ErrorBody = Schemas["Error"];

/** The typed client: `client.GET("/v1/games/{game_id}", { params: { path: { game_id } } })`. */
export type ParlourClient = Client<paths>;

export interface ClientOptions {
  /** the server's URL; `http://127.0.0.1:8000` when not given */
  server?: string;
  /** the player's (or app's) bearer token; none for the public calls */
  token?: string;
  /** a `fetch` to use instead of the global one */
  fetch?: typeof globalThis.fetch;
}

export const DEFAULT_SERVER = "http://127.0.0.1:8000";

/** A client for `server`, sending `Authorization: Bearer <token>` when a token is given. */
export function createParlourClient(options: ClientOptions = {}): ParlourClient {
  const headers: Record<string, string> = {};
  if (options.token) headers["Authorization"] = `Bearer ${options.token}`;
  return createClient<paths>({
    baseUrl: (options.server ?? DEFAULT_SERVER).replace(/\/+$/, ""),
    headers,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

/** A refusal from the server, with its status and the error body's code and details. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: unknown;

  constructor(status: number, body: unknown) {
    const error = errorOf(body);
    super(`${status} ${error.code}: ${error.message}`);
    this.name = "ApiError";
    this.status = status;
    this.code = error.code;
    this.details = error.details;
  }
}

function errorOf(body: unknown): { code: string; message: string; details: unknown } {
  if (typeof body === "object" && body !== null && "error" in body) {
    const error = body.error;
    if (typeof error === "object" && error !== null && "code" in error && "message" in error) {
      return {
        code: String(error.code),
        message: String(error.message),
        details: "details" in error ? error.details : undefined,
      };
    }
  }
  return { code: "unknown", message: typeof body === "string" ? body : "no error body", details: null };
}

/**
 * The answer's body, or an {@link ApiError} for a refusal:
 * `const view = await ok(client.GET("/v1/games/{game_id}", {...}))`.
 */
export async function ok<T extends { data?: unknown; error?: unknown; response: Response }>(
  call: Promise<T>,
): Promise<NonNullable<T["data"]>> {
  const { data, error, response } = await call;
  if (!response.ok || error !== undefined) throw new ApiError(response.status, error);
  if (data === undefined || data === null) throw new ApiError(response.status, "no body");
  return data;
}
