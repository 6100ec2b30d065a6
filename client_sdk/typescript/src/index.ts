/**
 * parlour-client: a typed client for the Parlour card-game server.
 *
 * - {@link createParlourClient}: openapi-fetch over the types generated from the server's
 *   `openapi.yaml` (every operation and schema, `Schemas["..."]`);
 * - {@link TurnSource}: the player's turns, pushed on `GET /v1/me/turns/stream` or
 *   long-polled on `GET /v1/me/turns?wait=...`;
 * - {@link runBot}: the bot loop around a {@link Bot} (a view in, a move out).
 */
export {
  ApiError,
  createParlourClient,
  DEFAULT_SERVER,
  ok,
  type ClientOptions,
  type components,
  type ConcertoView,
  type CowpokeView,
  type ErrorBody,
  type Move,
  type operations,
  type ParlourClient,
  type paths,
  type PinochleView,
  type Schemas,
  type SecondsView,
  type Turn,
  type View,
} from "./client.js";
export { runBot, type Bot, type Join, type RunOptions, type RunStats } from "./bot.js";
export { SseParser, sseMessages, type SseComment, type SseMessage } from "./sse.js";
export { TurnSource, type TurnEvent, type TurnOptions } from "./turns.js";
