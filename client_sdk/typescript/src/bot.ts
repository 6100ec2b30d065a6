/**
 * The bot loop: a {@link Bot} maps a view to a move; {@link runBot} takes the player's
 * turns as they come ({@link TurnSource}), asks the bot, and sends its move with the
 * turn's version, until the games it was asked to play are over.
 *
 * A turn can come twice (on connecting and pushed): a version already played is
 * skipped. A 409 (someone moved first, or a retry that lost) means "wait for the next
 * turn"; a network error or a 5xx means "wait a moment and connect again". Games that
 * stop asking for moves are looked at on quiet moments, so the loop notices their end.
 * With `acceptInvitations`, invitations are accepted at the start, when one is pushed,
 * and each time the turn stream opens (one made before the stream listened is never
 * pushed).
 */
import { ApiError, ok, type Move, type ParlourClient, type View } from "./client.js";
import { TurnSource } from "./turns.js";

/** What a bot is: a view in, one of its `legal_moves` out. */
export interface Bot {
  chooseMove(view: View): Move | Promise<Move>;
}

/** Where the bot plays, besides the games it is already seated in. */
export type Join =
  /** take a seat in an open game (`POST /v1/games/{id}/join`), any seat unless one is named */
  | { game: string; seat?: number }
  /** enter a ladder (`POST /v1/ladders/{id}/entries`, one game at a time); left when done */
  | { ladder: string };

export interface RunOptions {
  /** stop after this many games finished (default: run until stopped) */
  maxGames?: number;
  /** long-poll seconds and the turn stream's heartbeat (default 20) */
  wait?: number;
  /** false: long-poll only */
  push?: boolean;
  join?: Join;
  /** accept every invitation to a seat or an entry (default false: they expire) */
  acceptInvitations?: boolean;
  /** stops the loop (a move in flight is finished first) */
  signal?: AbortSignal;
  /** where the loop says what it does; silent by default */
  log?: (line: string) => void;
}

export interface RunStats {
  moves: number;
  finished: number;
  /** moves refused with 409: the game had moved on */
  conflicts: number;
  /** reconnections after a network error or a 5xx */
  retries: number;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** Whether an error is worth retrying: network trouble, a 5xx or a 429. */
function transient(error: unknown): boolean {
  if (error instanceof ApiError) return error.status >= 500 || error.status === 429;
  // fetch's own failures: a TypeError (no connection), a timeout, an abort
  if (error instanceof TypeError) return true;
  return error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError");
}

/** Play `bot` with `client`'s player until `maxGames` are finished or `signal` aborts. */
export async function runBot(
  bot: Bot,
  client: ParlourClient,
  options: RunOptions = {},
): Promise<RunStats> {
  const stats: RunStats = { moves: 0, finished: 0, conflicts: 0, retries: 0 };
  const maxGames = options.maxGames ?? Infinity;
  const log = options.log ?? (() => {});
  const source = new TurnSource(client, {
    wait: options.wait ?? 20,
    push: options.push ?? true,
  });
  const playing = new Set<string>();
  const validating = new Set<string>(); // the ladder's validation game: unrated, not counted
  let entered: { ladder: string; player: string } | undefined; // our ladder entry, if any
  const played = new Map<string, number>(); // game id -> the newest version played
  const done = () => options.signal?.aborted === true || stats.finished >= maxGames;

  const finish = (gameId: string, view: View) => {
    if (view.status !== "finished" && view.status !== "aborted") return;
    if (playing.delete(gameId)) {
      if (validating.delete(gameId)) {
        log(`validation game ${gameId} ${view.status}`);
        return;
      }
      stats.finished += 1;
      log(`game ${gameId} ${view.status}`);
    }
  };

  // A new game while our ladder entry validates is its validation game (an entry is
  // matched only once validated): it is not one of the games asked for.
  const isValidation = async (gameId: string) => {
    if (entered === undefined) return false;
    const entry = await ok(client.GET("/v1/ladders/{ladder_id}/entries/{player_id}", {
      params: { path: { ladder_id: entered.ladder, player_id: entered.player } },
    }));
    const got = entry.validation;
    return !!got && (got.game_id === gameId || got.status === "pending" || got.status === "playing");
  };

  const check = async (gameId: string) => {
    const view = await ok(client.GET("/v1/games/{game_id}", { params: { path: { game_id: gameId } } }));
    finish(gameId, view);
  };

  const acceptInvitations = async () => {
    if (!options.acceptInvitations) return;
    const { invitations } = await ok(client.GET("/v1/me/invitations"));
    for (const { id } of invitations) {
      try {
        await ok(client.POST("/v1/invitations/{invitation_id}/accept", {
          params: { path: { invitation_id: id } },
        }));
        log(`accepted invitation ${id}`);
      } catch (error) {
        if (!(error instanceof ApiError) || error.status >= 500) throw error;
        log(`invitation ${id}: ${error.code}`); // expired or withdrawn meanwhile
      }
    }
  };

  const play = async (turn: { game_id: string; seat: number; version: number; view: View }) => {
    if ((played.get(turn.game_id) ?? -1) >= turn.version) return; // seen: skip
    if (!playing.has(turn.game_id) && (await isValidation(turn.game_id))) {
      validating.add(turn.game_id);
    }
    playing.add(turn.game_id);
    const move = await bot.chooseMove(turn.view);
    try {
      const view = await ok(client.POST("/v1/games/{game_id}/moves", {
        params: { path: { game_id: turn.game_id } },
        body: { move, version: turn.version, seat: turn.seat },
      }));
      played.set(turn.game_id, turn.version);
      stats.moves += 1;
      finish(turn.game_id, view);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 409) throw error;
      stats.conflicts += 1; // the game moved on: its next turn will come
    }
  };

  if (options.join && "game" in options.join) {
    const { game, seat } = options.join;
    const view = await ok(client.POST("/v1/games/{game_id}/join", {
      params: { path: { game_id: game } },
      body: seat === undefined ? {} : { seat },
    }));
    playing.add(game);
    log(`joined game ${game} in seat ${view.you ?? "?"}`);
  } else if (options.join) {
    const entry = await ok(client.POST("/v1/ladders/{ladder_id}/entries", {
      params: { path: { ladder_id: options.join.ladder } },
      body: { max_games: 1 },
    }));
    entered = { ladder: options.join.ladder, player: entry.player_id };
    log(`entered ladder ${options.join.ladder}`);
  }
  await acceptInvitations();

  while (!done()) {
    try {
      for await (const event of source.events(options.signal)) {
        if (event.kind === "turns") {
          for (const turn of event.turns) {
            if (done()) break;
            await play(turn);
          }
        } else if (event.kind === "over") {
          if (playing.has(event.gameId)) await check(event.gameId);
        } else if (event.kind === "invitation" || event.kind === "open") {
          // on open too: an invitation made before the stream listened is never pushed
          await acceptInvitations();
        } else if (event.kind === "error") {
          throw new ApiError(401, { error: { code: "unauthorized", message: event.message } });
        }
        if (event.kind === "quiet" || (event.kind === "turns" && event.turns.length === 0)) {
          for (const id of [...playing]) await check(id); // has a game we played finished?
        }
        if (done()) break;
      }
    } catch (error) {
      if (options.signal?.aborted) break;
      if (!transient(error)) throw error;
      stats.retries += 1;
      log(`server unavailable (${error instanceof Error ? error.message : String(error)}); trying again`);
      await sleep(1000, options.signal);
    }
  }
  if (options.join && "ladder" in options.join) {
    await ok(client.DELETE("/v1/ladders/{ladder_id}/entries", {
      params: { path: { ladder_id: options.join.ladder } },
    })).catch(() => undefined); // no more games for this entry
  }
  return stats;
}
