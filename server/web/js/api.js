// The only way the pages talk to the server: the public /v1 API, JSON over fetch.
//
// The seat token is read once from the URL fragment (#token=..., which the browser
// never sends to a server) or from a form, kept in sessionStorage (this tab only),
// and sent nowhere but the Authorization header of these calls.

const TOKEN_KEY = 'parlour.token';
const NETWORK_RETRIES = 3;

export class ApiError extends Error {
  constructor(status, body) {
    const error = body && body.error ? body.error : {code: 'http_error', message: `HTTP ${status}`};
    super(error.message);
    this.status = status;
    this.code = error.code;
    this.details = error.details || {};
  }
}

/** Move a token from the URL fragment into sessionStorage and out of the address bar. */
export function adoptTokenFromFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  const token = params.get('token');
  const back = params.get('return');
  const table = location.pathname.match(/^\/table\/([\w-]+)\/?$/);
  if (back !== null && table) rememberReturn(table[1], back);
  if (token || back !== null) {
    if (token) setToken(token);
    history.replaceState(null, '', location.pathname + location.search);
  }
}

const RETURN_KEY = 'parlour.return.';

/**
 * Where the embedding app wants its people sent back (its lobby): `#return=<url>` beside
 * the token in a table's address (docs/embed.md). Only an absolute http(s) address is
 * kept, for that table in this tab; the page shows its host on the link, so nobody is
 * sent blind.
 */
function rememberReturn(gameId, value) {
  try {
    const url = new URL(value);
    if ((url.protocol === 'https:' || url.protocol === 'http:') && value.length <= 500) {
      sessionStorage.setItem(RETURN_KEY + gameId, url.href);
    }
  } catch {
    // not an address: ignored
  }
}

/** The embedding app's return address for this game's table in this tab, or null. */
export function returnUrl(gameId) {
  return sessionStorage.getItem(RETURN_KEY + gameId);
}

const SEAT_KEY = 'parlour.seat.';

/** Keep a seat's token aside while its player watches as a spectator (this tab only). */
export function setAsideToken(gameId) {
  const current = token();
  if (current) sessionStorage.setItem(SEAT_KEY + gameId, current);
  forgetToken();
}

/** The token set aside for this game, taken back (null: none). */
export function takeBackToken(gameId, take = true) {
  const kept = sessionStorage.getItem(SEAT_KEY + gameId);
  if (kept && take) {
    setToken(kept);
    sessionStorage.removeItem(SEAT_KEY + gameId);
  }
  return kept;
}

export function token() {
  return sessionStorage.getItem(TOKEN_KEY);
}

export function setToken(value) {
  const clean = String(value || '').trim();
  if (clean) sessionStorage.setItem(TOKEN_KEY, clean);
}

export function forgetToken() {
  sessionStorage.removeItem(TOKEN_KEY);
}

const VISITOR_KEY = 'parlour.visitor';

/** Remember (this tab only) the visitor game just dealt, so its end can deal another like it. */
export function rememberVisitorGame(id, game, options) {
  sessionStorage.setItem(VISITOR_KEY, JSON.stringify({id, game, options}));
}

/** The visitor game this tab last dealt: {id, game, options}, or null. */
export function visitorGame() {
  try {
    return JSON.parse(sessionStorage.getItem(VISITOR_KEY) || 'null');
  } catch {
    return null;
  }
}

/**
 * Call the API. Options: method, body (JSON), auth (send the token; default true),
 * signal. Resolves to the decoded JSON; rejects with ApiError on any error status.
 */
export async function api(path, {method = 'GET', body, auth = true, signal} = {}) {
  const headers = {Accept: 'application/json'};
  const seatToken = auth ? token() : null;
  if (seatToken) headers.Authorization = `Bearer ${seatToken}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const init = {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
    cache: 'no-store',
    credentials: 'omit',
    referrerPolicy: 'no-referrer',
  };
  let response = null;
  // Network trouble (the fetch itself fails): try again a few times before giving up.
  // A move sent twice is safe: the server answers a repeated move without applying it.
  for (let attempt = 0; response === null; attempt++) {
    try {
      response = await fetch(path, init);
    } catch (err) {
      if (signal?.aborted || attempt >= NETWORK_RETRIES) {
        throw new ApiError(0, {error: {code: 'network', message: 'The server cannot be reached; check your connection.'}});
      }
      await new Promise((resolve) => setTimeout(resolve, 500 * 2 ** attempt));
    }
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

/** Build a query string from an object, skipping null and undefined values. */
export function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined) q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
}
