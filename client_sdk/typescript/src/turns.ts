/**
 * The player's turns as the server pushes them (`GET /v1/me/turns/stream`, server-sent
 * events), with the long-poll `GET /v1/me/turns?wait=...` where a server has no stream.
 *
 * The stream starts with the player's current turns, then pushes each new one; a
 * `: heartbeat` comment follows a quiet spell; the server closes each stream after a
 * while (reconnect: the current turns come first again). The same turn may come twice:
 * drop a turn whose game and version were played. Whose turn it is lives on the server,
 * so a dropped connection loses nothing.
 */
import { ApiError, ok, type ParlourClient, type Schemas, type Turn } from "./client.js";
import { sseMessages } from "./sse.js";

/** What one connection to the turn source brings, in order. */
export type TurnEvent =
  /** the player's turns in one game (`event: turns`), or what one long-poll listed */
  | { kind: "turns"; turns: Turn[] }
  /** a game the player sat in is over (`event: over`) */
  | { kind: "over"; gameId: string; status: string }
  /** someone named the player in a seat or an entry (`event: invitation`) */
  | { kind: "invitation"; id: string }
  /** the stream is open: from here on, every new invitation is pushed (an invitation
   * made before it opened is not: read `GET /v1/me/invitations` now) */
  | { kind: "open" }
  /** a heartbeat, or a long-poll that ended with no turn: time for idle checks */
  | { kind: "quiet" }
  /** the token was revoked or expired (`event: error`): the stream ends */
  | { kind: "error"; message: string };

export interface TurnOptions {
  /** seconds per long-poll, and the heartbeat asked of the stream (default 20) */
  wait?: number;
  /** false: long-poll only (the fallback when the server has no turn stream) */
  push?: boolean;
  /** ends the connection (the generator returns) */
  signal?: AbortSignal;
}

/** The turn-stream message types of the spec, by `event`. */
type OverData = Schemas["OverMessage"]["data"];
type ErrorData = Schemas["StreamErrorMessage"]["data"];

/** A stream message's data, parsed: a refused frame is a bug to report, not a crash later. */
class BadFrame extends Error {}

function parsed(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    throw new BadFrame(`turn stream: a frame that is not JSON: ${data.slice(0, 80)}`);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A turn as the spec's `Turn` describes it, checked on the fields a bot loop reads. */
function isTurn(value: unknown): value is Turn {
  if (!isRecord(value) || !isRecord(value["view"])) return false;
  const view = value["view"];
  return (
    typeof value["game_id"] === "string" &&
    typeof value["version"] === "number" &&
    typeof value["seat"] === "number" &&
    typeof view["game"] === "string" &&
    Array.isArray(view["legal_moves"])
  );
}

function turnsOf(value: unknown): Turn[] {
  if (!Array.isArray(value)) throw new BadFrame("turn stream: `turns` data is not a list");
  return value.map((item) => {
    if (!isTurn(item)) throw new BadFrame("turn stream: a frame that is not a list of turns");
    return item;
  });
}

function overOf(value: unknown): OverData {
  if (!isRecord(value) || typeof value["game_id"] !== "string") {
    throw new BadFrame("turn stream: `over` data without game_id");
  }
  return { game_id: value["game_id"], status: String(value["status"] ?? "") };
}

function errorOf(value: unknown): ErrorData {
  return { message: isRecord(value) ? String(value["message"] ?? "") : String(value) };
}

/**
 * One connection's worth of turn events: the stream until the server ends it, or
 * one long-poll (`push: false`, or a server that answers the stream with 404; the
 * returned object's `push` then reads false, so the caller long-polls from then on).
 */
export class TurnSource {
  push: boolean;
  private readonly client: ParlourClient;
  private readonly wait: number;

  constructor(client: ParlourClient, options: Omit<TurnOptions, "signal"> = {}) {
    this.client = client;
    this.wait = options.wait ?? 20;
    this.push = options.push ?? true;
  }

  async *events(signal?: AbortSignal): AsyncGenerator<TurnEvent> {
    if (this.push) {
      const { data, response } = await this.client.GET("/v1/me/turns/stream", {
        params: { query: { heartbeat: Math.max(1, this.wait) } },
        headers: { Accept: "text/event-stream" },
        parseAs: "stream",
        ...(signal ? { signal } : {}),
      });
      if (response.status === 404) {
        this.push = false; // an older server: long-poll from now on
      } else if (!response.ok || !data) {
        throw new ApiError(response.status, await response.json().catch(() => null));
      } else {
        yield { kind: "open" };
        try {
          for await (const item of sseMessages(data)) {
            if (item.type === "comment") {
              yield { kind: "quiet" };
            } else if (item.event === "turns") {
              yield { kind: "turns", turns: turnsOf(parsed(item.data)) };
            } else if (item.event === "over") {
              const over = overOf(parsed(item.data));
              yield { kind: "over", gameId: over.game_id, status: over.status };
            } else if (item.event === "invitation") {
              const invitation = parsed(item.data);
              const id = isRecord(invitation) ? String(invitation["id"]) : "";
              yield { kind: "invitation", id };
            } else if (item.event === "error") {
              yield { kind: "error", message: errorOf(parsed(item.data)).message };
              return;
            }
          }
        } catch (error) {
          if (signal?.aborted) return;
          if (!(error instanceof BadFrame)) throw error;
          // never the end of the bot: the same turns, read as one JSON answer
          const page = await ok(this.client.GET("/v1/me/turns", { params: { query: { wait: 0 } } }));
          yield { kind: "turns", turns: page.turns };
        }
        return; // the server ended this stream (it bounds each one): connect again
      }
    }
    const page = await ok(
      this.client.GET("/v1/me/turns", {
        params: { query: { wait: this.wait } },
        signal: AbortSignal.any([
          AbortSignal.timeout((this.wait + 10) * 1000),
          ...(signal ? [signal] : []),
        ]),
      }),
    );
    yield page.turns.length ? { kind: "turns", turns: page.turns } : { kind: "quiet" };
  }
}
