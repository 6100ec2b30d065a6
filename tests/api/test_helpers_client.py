"""The API tests' HTTP client (``tests/api/helpers.py`` ``Connections``) reads every way a
server may frame an answer, keeps its connection, and retries once on one the server
dropped while idle."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import pytest

from tests.api.helpers import Connections

ANSWERS = [
    # kept: a length
    b'HTTP/1.1 200 OK\r\nContent-Length: 8\r\nX-A: 1\r\nX-A: 2\r\n\r\n{"n": 1}',
    # kept: chunks (and a trailer)
    b"HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n"
    b'3\r\n{"n\r\n5\r\n": 2}\r\n0\r\nX-T: t\r\n\r\n',
    # then closed: read to the end
    b'HTTP/1.1 404 NOT FOUND\r\nConnection: close\r\n\r\n{"n": 3}',
]


@pytest.fixture
def canned() -> Iterator[tuple[str, list[bytes]]]:
    """A server answering the requests of each connection it accepts with canned answers
    (``b""``: closed unanswered, as a server drops an idle keep-alive connection)."""
    listener = socket.create_server(("127.0.0.1", 0))
    received: list[bytes] = []

    def serve() -> None:
        # the first connection: ANSWERS; the second is dropped idle after one answer, and
        # the retry gets the third; the fourth is closed unanswered
        for answers in (ANSWERS, [ANSWERS[0], b""], [ANSWERS[0]], [b""]):
            conn, _ = listener.accept()
            with conn, conn.makefile("rb") as requests:
                for answer in answers:
                    head = b""
                    while not head.endswith(b"\r\n\r\n"):
                        line = requests.readline()
                        if not line:
                            return
                        head += line
                    length = next(
                        (
                            int(h.split(b":")[1])
                            for h in head.split(b"\r\n")
                            if h.lower().startswith(b"content-length")
                        ),
                        0,
                    )
                    received.append(head + requests.read(length))
                    conn.sendall(answer)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}", received
    thread.join(5)
    listener.close()


def test_the_client_reads_lengths_chunks_and_closes_and_retries_a_dropped_connection(canned):
    url, received = canned
    http = Connections(url)
    one = http.request("GET", "/a?x=1", None, {"Authorization": "Bearer t"})
    assert (one.status, one.body, one.headers["X-A"]) == (200, {"n": 1}, "1, 2")
    two = http.request("POST", "/b", b'{"k": 1}', {"Content-Type": "application/json"})
    assert (two.status, two.body, two.text) == (201, {"n": 2}, '{"n": 2}')
    three = http.request("DELETE", "/c", None, {})
    assert (three.status, three.body) == (404, {"n": 3})
    assert len(http.opened) == 1  # one connection for the three
    # anew (the last was closed); then the server drops it while idle: retried anew
    assert http.request("GET", "/d", None, {}).body == {"n": 1}
    assert http.request("GET", "/e", None, {}).body == {"n": 1}
    assert len(http.opened) == 3
    with pytest.raises(ConnectionError):  # a fresh connection that fails is not retried
        http.request("GET", "/f", None, {})
    http.close()
    port = url.rsplit(":", 1)[1]
    assert (
        received[0]
        == (
            f"GET /a?x=1 HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept-Encoding: identity\r\n"
            "Authorization: Bearer t\r\n\r\n"
        ).encode()
    )
    assert received[1].endswith(
        b'Content-Length: 8\r\nContent-Type: application/json\r\n\r\n{"k": 1}'
    )
    assert b"Content-Length: 0\r\n" not in received[2]  # DELETE without a body: none


def test_the_in_process_client_reads_what_the_flask_test_client_reads(api, client, players):
    """``Api`` over the app (no socket) answers as the Flask test client does: status,
    JSON body (None for other types), text and headers, for reads, writes and errors."""
    me = players.register("same")
    game = api.create("admin", [me.id, None, None, None])
    cases = [
        ("get", f"/v1/games/{game['id']}", me.headers, None),
        ("get", "/v1/games/nope", {}, None),
        ("get", "/metrics", {}, None),  # text
        ("get", "/", {}, None),  # HTML
        ("post", "/v1/players", {"Content-Type": "application/json"}, '{"name": 1}'),
        ("delete", f"/v1/games/{game['id']}/seats/1", me.headers, None),
    ]
    for method, path, headers, data in cases:
        ours = api.post(path, raw=data) if method == "post" else getattr(api, method)(path, me)
        theirs = client.open(path, method=method.upper(), headers=headers, data=data)
        assert ours.status == theirs.status_code, path
        assert ours.body == theirs.get_json(silent=True), path
        if path != "/metrics":  # (its counters count the request just made)
            assert ours.text == theirs.get_data(as_text=True), path
        assert ours.headers.keys() == dict(theirs.headers).keys(), path
    assert api.get("/metrics").body is None and api.get("/").body is None
