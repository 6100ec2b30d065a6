"""What the hosted bots' tests share: bundles to upload, and a sandbox worker beside the
test's server (in a thread, over the session's real Redis)."""

from __future__ import annotations

import base64
import io
import json
import tarfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from server.processes.sandboxd import SandboxWorker
from server.sandbox import Limits
from server.services.bundle import Services
from server.store import connect

FIRST_LEGAL_SH = r"""
while IFS= read -r line; do
  case "$line" in *'"type":"turn"'*) ;; *) continue ;; esac
  move=$(printf '%s\n' "$line" | sed -n 's/.*"legal_moves":\[\({[^{}]*}\).*/\1/p')
  printf '{"move":%s}\n' "$move"
done
"""
"""A ``command`` bot in sh: the first legal move of each turn (cheap: no interpreter)."""

LIMITS = Limits(turn_seconds=5.0, cold_start_seconds=20.0, memory_bytes=64 << 20)


def tar_upload(
    files: dict[str, str], manifest: dict | None = None, name: str = "bot.tar.gz"
) -> dict:
    """An upload body (``BotUpload``) of a gzipped tar of ``files`` and its manifest."""
    manifest = manifest or {"language": "command", "argv": ["sh", "bot.sh"]}
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for path, text in {"manifest.json": json.dumps(manifest), **files}.items():
            data = text.encode()
            info = tarfile.TarInfo(path)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return {"filename": name, "content_base64": base64.b64encode(buf.getvalue()).decode()}


def sh_bot(script: str = FIRST_LEGAL_SH) -> dict:
    return tar_upload({"bot.sh": script})


@contextmanager
def sandbox_worker(redis_url: str, seats: int = 16) -> Iterator[SandboxWorker]:
    """A sandbox worker ticking in a thread until the block ends, then closed."""
    worker = SandboxWorker(
        Services(connect(redis_url), admin_token=None).hosted, seats=seats, limits=LIMITS
    )
    stop = threading.Event()
    thread = threading.Thread(target=worker.run, args=(stop,), daemon=True)
    worker.tick(block=0)  # its first heartbeat, before the test creates a bot
    thread.start()
    try:
        yield worker
    finally:
        stop.set()
        thread.join(15)
        worker.close()
