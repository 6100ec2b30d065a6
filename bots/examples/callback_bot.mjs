// A Parlour bot as a URL, in plain JavaScript with no dependencies (node:http, node:crypto).
//
//   PARLOUR_CALLBACK_SECRET=cbs_... node callback_bot.mjs --port 8080 [--host 127.0.0.1]
//                                   [--max-body BYTES]
//
// Register its public address as your callback (PUT /v1/me/callback, docs/callbacks.md):
// the server then POSTs each of your turns here and plays the move this answers. A call
// is the turn entry of GET /v1/me/turns plus a unique call id, signed with your callback
// secret:
//
//   Parlour-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, `${t}.` + raw body)>
//   {"id": "...", "game_id": "...", "seat": 0, "version": 12, "view": {...}, "clock": {...}}
//
// and the answer is 200 {"move": <one of view.legal_moves>}. Anything not signed with the
// secret, signed more than 5 minutes from now, sent twice, too big or not a call is
// refused with a 4xx before the bot is asked.
//
// On a serverless platform, export a handler that passes the raw body and the signature
// header to `handle` (createHandler below) and answers its { status, body }.
import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

export const TOLERANCE_S = 300;
export const MAX_BODY = 1 << 20;
export const MAX_CALL_IDS = 100_000;

/** A uniformly random legal move: the bot. Replace it with your own. */
export function randomMove(view) {
  const legal = view.legal_moves;
  return legal[Math.floor(Math.random() * legal.length)];
}

/** The `Parlour-Signature` value of `body` (a Buffer) at `t` (unix seconds). */
export function sign(secret, body, t = Math.floor(Date.now() / 1000)) {
  const mac = createHmac("sha256", secret).update(`${t}.`).update(body).digest("hex");
  return `t=${t},v1=${mac}`;
}

/** Why `header` is not a valid signature of `body` made within the tolerance; null if it is. */
export function signatureProblem(secret, header, body, nowS = Date.now() / 1000) {
  const parts = Object.fromEntries(
    String(header ?? "").split(",").map((p) => p.trim().split("=", 2)).filter((p) => p.length === 2),
  );
  const t = Number.parseInt(parts.t ?? "", 10);
  if (!/^\d+$/.test(parts.t ?? "") || !Number.isSafeInteger(t)) return "no valid Parlour-Signature";
  if (Math.abs(nowS - t) > TOLERANCE_S) return "the signature's timestamp is too far from now";
  const expected = Buffer.from(sign(secret, body, t).split("v1=")[1], "utf8");
  const given = Buffer.from(parts.v1 ?? "", "utf8");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return "the signature does not match the body";
  }
  return null;
}

/**
 * The endpoint's logic, with no HTTP in it: `handle(rawBody, signatureHeader)` gives
 * `{ status, body }`. It remembers the call ids of the last 2 × 300 s (a signed call sent
 * again is a replay: refused), so keep one handler per process.
 */
export function createHandler(secret, chooseMove = randomMove, maxBody = MAX_BODY) {
  if (!secret) throw new Error("a callback endpoint needs the callback's secret");
  const seen = new Map(); // call id -> when it came (ms), oldest first
  const refuse = (status, code, message) => ({ status, body: { error: { code, message } } });
  return function handle(rawBody, signatureHeader) {
    if (rawBody.length > maxBody) return refuse(413, "payload_too_large", "the body is too big");
    const problem = signatureProblem(secret, signatureHeader, rawBody);
    if (problem) return refuse(401, "unauthorized", problem);
    let call;
    try {
      call = JSON.parse(rawBody.toString("utf8"));
    } catch {
      return refuse(400, "invalid_request", "the body is not JSON");
    }
    const view = call?.view;
    if (typeof call?.id !== "string" || !call.id || typeof call.game_id !== "string") {
      return refuse(400, "invalid_request", "the call has no id and game_id");
    }
    if (!Array.isArray(view?.legal_moves) || view.legal_moves.length === 0) {
      return refuse(400, "invalid_request", "the view has no legal moves");
    }
    const now = Date.now();
    for (const [id, at] of seen) {
      if (at >= now - 2 * TOLERANCE_S * 1000) break;
      seen.delete(id);
    }
    while (seen.size >= MAX_CALL_IDS) seen.delete(seen.keys().next().value);
    if (seen.has(call.id)) return refuse(409, "replayed", "this call was received already");
    seen.set(call.id, now);
    return { status: 200, body: { move: chooseMove(view) } };
  };
}

/** An http.Server answering calls with `handle` (bodies over `maxBody` bytes are not read). */
export function createServer(handle, maxBody = MAX_BODY) {
  return http.createServer((req, res) => {
    const answer = ({ status, body }) => {
      const data = JSON.stringify(body);
      res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(data) });
      res.end(data);
    };
    if (req.method !== "POST") return answer({ status: 405, body: { error: { code: "method_not_allowed", message: "a callback is a POST" } } });
    if (Number(req.headers["content-length"] ?? 0) > maxBody) {
      answer({ status: 413, body: { error: { code: "payload_too_large", message: "the body is too big" } } });
      return res.once("finish", () => req.destroy()); // the answer sent, the rest unread
    }
    const chunks = [];
    let size = 0;
    let refused = false;
    req.on("data", (chunk) => {
      size += chunk.length;
      if (refused) return;
      if (size > maxBody) {
        refused = true;
        answer({ status: 413, body: { error: { code: "payload_too_large", message: "the body is too big" } } });
        res.once("finish", () => req.destroy());
      } else chunks.push(chunk);
    });
    req.on("end", () => {
      if (refused) return;
      try {
        answer(handle(Buffer.concat(chunks), req.headers["parlour-signature"]));
      } catch (err) {
        console.error("the bot failed:", err);
        answer({ status: 500, body: { error: { code: "internal", message: "the bot failed" } } });
      }
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values: args } = parseArgs({
    options: {
      port: { type: "string", default: "8080" },
      host: { type: "string", default: "127.0.0.1" },
      "max-body": { type: "string", default: String(MAX_BODY) },
    },
  });
  const secret = process.env.PARLOUR_CALLBACK_SECRET;
  if (!secret) {
    console.error("a callback secret is needed: PARLOUR_CALLBACK_SECRET");
    process.exit(2);
  }
  const maxBody = Number(args["max-body"]);
  const server = createServer(createHandler(secret, randomMove, maxBody), maxBody);
  server.listen(Number(args.port), args.host, () => {
    console.error(`random: serving calls on http://${args.host}:${server.address().port}/`);
  });
}
