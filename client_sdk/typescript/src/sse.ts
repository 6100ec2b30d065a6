/**
 * A server-sent events reader that follows the spec (WHATWG HTML, "server-sent events"),
 * as the Python SDK's `client_sdk/sse.py` does:
 *
 * - a line ends at CR LF, a lone CR or a lone LF, and nowhere else (not at U+0085,
 *   U+2028 or U+2029: a player named `a\u2028data: x` must not cut a message); a CR that
 *   ends one chunk and an LF that starts the next are one line end;
 * - `field: value`: the name runs to the first colon, one space after it is dropped;
 *   a line with no colon is a field with an empty value; a line that starts with a
 *   colon is a comment (`: heartbeat`);
 * - `data` lines join with LF; `event` names the message (`message` when none); `id`
 *   sets the last event id (ignored if it holds NUL); `retry` (ASCII digits only) the
 *   reconnection time; other fields are ignored;
 * - a blank line dispatches the message; one without `data` is dropped, and so is what is
 *   left when the stream ends without a blank line;
 * - the stream is UTF-8; one leading byte-order mark is skipped; bytes that are not
 *   UTF-8 become U+FFFD. Lines are decoded whole, so a character cut between two chunks
 *   is read right.
 */

/** One dispatched message. */
export interface SseMessage {
  type: "message";
  /** the `event` field, `message` when the message has none */
  event: string;
  /** the `data` lines joined with LF */
  data: string;
  /** the last event id seen (`""`: none yet) */
  id: string;
  /** the reconnection time (ms) the stream last asked for, or null */
  retry: number | null;
}

/** A comment line (`: heartbeat`), without its colon. */
export interface SseComment {
  type: "comment";
  text: string;
}

const CR = 13;
const LF = 10;
const BOM = [0xef, 0xbb, 0xbf];

/** Bytes in, messages and comments out, in chunks of any size. */
export class SseParser {
  private line: number[] = [];
  private afterCR = false;
  private started = false;
  private data: string[] = [];
  private event = "";
  private idBuffer = "";
  private readonly decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
  lastEventId = "";
  retry: number | null = null;

  /** The messages and comments that `chunk` completes, in order. */
  feed(chunk: Uint8Array): (SseMessage | SseComment)[] {
    const out: (SseMessage | SseComment)[] = [];
    let start = 0;
    if (this.afterCR && chunk.length > 0 && chunk[0] === LF) start = 1;
    if (chunk.length > 0) this.afterCR = false;
    for (let i = start; i < chunk.length; i++) {
      const byte = chunk[i];
      if (byte === undefined) continue;
      if (byte === CR || byte === LF) {
        const item = this.take(this.line);
        this.line = [];
        if (item !== null) out.push(item);
        if (byte === CR) {
          if (i + 1 < chunk.length) {
            if (chunk[i + 1] === LF) i++;
          } else {
            this.afterCR = true;
          }
        }
      } else {
        this.line.push(byte);
      }
    }
    return out;
  }

  private take(raw: number[]): SseMessage | SseComment | null {
    let bytes = raw;
    if (!this.started) {
      this.started = true;
      if (BOM.every((b, i) => bytes[i] === b)) bytes = bytes.slice(BOM.length);
    }
    if (bytes.length === 0) return this.dispatch();
    const line = this.decoder.decode(new Uint8Array(bytes));
    if (line.startsWith(":")) return { type: "comment", text: line.slice(1).trimStart() };
    const colon = line.indexOf(":");
    const name = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (name === "data") this.data.push(value);
    else if (name === "event") this.event = value;
    else if (name === "id" && !value.includes("\0")) this.idBuffer = value;
    else if (name === "retry" && /^[0-9]+$/.test(value)) this.retry = Number(value);
    return null;
  }

  private dispatch(): SseMessage | null {
    this.lastEventId = this.idBuffer;
    const data = this.data;
    const event = this.event;
    this.data = [];
    this.event = "";
    if (data.length === 0) return null;
    return {
      type: "message",
      event: event || "message",
      data: data.join("\n"),
      id: this.lastEventId,
      retry: this.retry,
    };
  }
}

/**
 * The messages and comments of a server-sent events body, as they arrive: a fetch
 * response's `body` (a `ReadableStream`, async-iterable in Node) or any bytes' iterable.
 */
export async function* sseMessages(
  body: AsyncIterable<Uint8Array>,
): AsyncGenerator<SseMessage | SseComment> {
  const parser = new SseParser();
  for await (const chunk of body) yield* parser.feed(chunk);
}
