"""Bundles that reach for what is not theirs: the network, the server's files, each other.

One probing bundle answers each probe with a report of what it tried and what it got;
the tests hold the report to what the sandbox promises (docs/sandbox.md), and check the
host's side too (a listening socket that accepted nothing). Two seats of one bundle then
try every way from one to the other they can think of.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from server.processes.redis_embed import EmbeddedRedis
from server.sandbox import Seat

from .support import LEGAL, LIMITS, VIEW, write_bundle

PROBE_BOT = """
import json, os, signal, socket, subprocess, sys, time
from client_sdk import Bot


def attempt(fn):
    try:
        result = fn()
    except Exception as e:
        return f"refused: {type(e).__name__}: {e}"
    return f"ok: {result}"[:200]


def connect(family, address, timeout=0.5):
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.settimeout(timeout)
        s.connect(address)
        return "connected"


def read(path):
    if os.path.isdir(path):
        return os.listdir(path)
    with open(path, "rb") as f:
        return f.read(100)


def write(path, size=1):
    with open(path, "wb") as f:
        f.write(b"x" * size)
    return "written"


def status():
    fields = dict(line.split(":\\t", 1) for line in open("/proc/self/status").read().splitlines()
                  if ":\\t" in line)
    return {k: fields[k].split()[0] for k in ("Uid", "CapEff", "CapPrm", "CapBnd")}


def network(view):
    return {
        "tcp_listener": attempt(lambda: connect(socket.AF_INET, ("127.0.0.1", view["port"]))),
        "outside": attempt(lambda: connect(socket.AF_INET, ("192.0.2.1", 80))),
        "redis_socket": attempt(lambda: connect(socket.AF_UNIX, view["redis_socket"])),
        "udp_outside": attempt(lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                               .sendto(b"x", ("192.0.2.1", 53))),
        "interfaces": [name for _, name in socket.if_nameindex()],
    }


def files(view):
    report = {f"read {p}": attempt(lambda p=p: read(p)) for p in view["secrets"]}
    report.update({f"write {p}": attempt(lambda p=p: write(p)) for p in view["unwritable"]})
    report["write /tmp"] = attempt(lambda: write("/tmp/ok"))
    report["fill /tmp"] = attempt(lambda: write("/tmp/big", 4 << 20))
    report["root"] = sorted(os.listdir("/"))
    report["status"] = status()
    report["env"] = sorted(os.environ)
    report["cgroup"] = open("/proc/self/cgroup").read()
    return report


def plant(view):
    global listener, child
    with open("/tmp/partner-mark", "w") as f:
        f.write("a")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind("\\0parlour-partner")
    listener.listen()
    child = subprocess.Popen(["sleep", "3000.5"])
    return {"planted": True, "pid": os.getpid()}


def seek(view):
    def cmdlines():
        found = []
        for pid in os.listdir("/proc"):
            if pid.isdigit():
                try:
                    found.append(open(f"/proc/{pid}/cmdline", "rb").read().decode())
                except OSError:
                    pass
        return found
    visible = [p for p in os.listdir("/proc") if p.isdigit()]
    killed = []
    for pid in range(1, 400):
        if pid != os.getpid():
            try:
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
            except OSError:
                pass
    return {
        "mark": os.path.exists("/tmp/partner-mark"),
        "abstract": attempt(lambda: connect(socket.AF_UNIX, "\\0parlour-partner")),
        "sleeper_seen": any("3000.5" in c for c in cmdlines()),
        "visible": visible,
        "host_pids": {str(p): attempt(lambda p=p: read(f"/proc/{p}/cmdline"))
                      for p in view["partner_pids"]},
        "killed": killed,
        "kill_all": attempt(lambda: os.kill(-1, signal.SIGKILL)),
    }


def still(view):
    return {"sleeper_alive": child.poll() is None, "listening": listener.fileno() >= 0,
            "mark": open("/tmp/partner-mark").read()}


PROBES = {"network": network, "files": files, "plant": plant, "seek": seek, "still": still}


class Probe(Bot):
    def choose_move(self, view):
        if "probe" in view:
            return {"type": "report", "report": PROBES[view["probe"]](view)}
        return view["legal_moves"][0]
"""


@pytest.fixture(scope="module")
def probe_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_bundle(tmp_path_factory.mktemp("probe"), PROBE_BOT)


@pytest.fixture(scope="module")
def prober(probe_bundle: Path) -> Seat:
    with Seat(probe_bundle, LIMITS, name="prober") as seat:
        yield seat


def report(seat: Seat, probe: str, **params: object) -> dict:
    reply = seat.turn({**VIEW, "probe": probe, **params})
    assert reply.failure is None, (reply.failure, seat.stderr_tail)
    assert reply.move is not None and reply.move["type"] == "report", reply
    return reply.move["report"]


def refused(result: str) -> bool:
    return result.startswith("refused: ")


def test_no_network_but_a_loopback_of_its_own(
    prober: Seat, redis_server: EmbeddedRedis, bystander
) -> None:
    """The host's loopback (a socket the test listens on), the test Redis's unix socket,
    an outside address (TEST-NET-1, never routed) over TCP and UDP: all refused, at once."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        listener.setblocking(False)
        got = report(
            prober,
            "network",
            port=listener.getsockname()[1],
            redis_socket=str(redis_server.socket_path),
        )
        with pytest.raises(BlockingIOError):
            listener.accept()  # nobody came
    assert refused(got["tcp_listener"]) and "Connection refused" in got["tcp_listener"], got
    assert refused(got["outside"]) and "unreachable" in got["outside"], got
    assert refused(got["udp_outside"]), got
    assert refused(got["redis_socket"]) and "FileNotFoundError" in got["redis_socket"], got
    assert os.path.exists(redis_server.socket_path)  # there outside, not inside
    assert got["interfaces"] == ["lo"], got


def test_the_servers_files_are_not_there_and_nothing_is_writable_but_tmp(
    prober: Seat, tmp_path: Path, bystander
) -> None:
    data = tmp_path / "var" / "data"
    data.mkdir(parents=True)
    (data / "secret").write_text("the server's secret")
    os.chmod(data / "secret", 0o644)
    repo = Path(__file__).resolve().parents[2]
    secrets = [str(data / "secret"), "/etc/shadow", "/etc/passwd", str(repo), str(repo / "var"),
               "/var/lib", "/run", "/home", "/proc/1/environ", "/sys/fs/cgroup"]  # fmt: skip
    unwritable = ["/bot/x", "/usr/x", "/x", "/etc/x", "/dev/x", "/sdk/x", "/proc/x"]
    got = report(prober, "files", secrets=secrets, unwritable=unwritable)
    for path in secrets + unwritable:
        key = f"read {path}" if path in secrets else f"write {path}"
        assert refused(got[key]), (key, got[key])
    assert got["write /tmp"] == "ok: written", got
    assert refused(got["fill /tmp"]) and "No space left" in got["fill /tmp"], got
    assert set(got["root"]) <= {"bin", "lib", "lib32", "lib64", "libx32", "sbin", "usr",
                                "etc", "bot", "sdk", "sandbox", "proc", "dev", "tmp",
                                "root", "home", "opt", "work"}, got["root"]  # fmt: skip
    assert {"var", "run", "srv", "mnt", "sys"}.isdisjoint(got["root"]), got["root"]
    if os.geteuid() == 0:
        assert got["status"]["Uid"] == "65534", got["status"]
    assert got["status"]["CapEff"] == got["status"]["CapPrm"] == "0000000000000000", got
    assert "HOSTNAME" not in got["env"] and "REDIS_URL" not in got["env"], got["env"]
    assert set(got["env"]) >= {"PATH", "HOME", "PYTHONPATH"}, got["env"]


def test_a_link_in_the_bundle_points_inside_the_sandbox(tmp_path: Path, seat_of, bystander) -> None:
    """A bundle's symbolic link to a host file is copied as a link: inside, it names the
    sandbox's file of that path, and there is none."""
    secret = tmp_path / "secret"
    secret.write_text("host secret")
    os.chmod(secret, 0o644)
    bundle = write_bundle(tmp_path / "linker", PROBE_BOT)
    (bundle / "leak").symlink_to(secret)
    seat = seat_of(bundle)
    got = report(seat, "files", secrets=["/bot/leak"], unwritable=[])
    assert refused(got["read /bot/leak"]) and "FileNotFoundError" in got["read /bot/leak"]


def test_two_seats_of_one_bundle_cannot_reach_each_other(probe_bundle: Path, bystander) -> None:
    """A file in /tmp, an abstract unix socket, /proc, signals: seat B finds nothing of
    seat A, kills nothing of it, and A plays on."""
    with Seat(probe_bundle, LIMITS, name="a") as a, Seat(probe_bundle, LIMITS, name="b") as b:
        assert report(a, "plant")["planted"]
        assert a.cgroup is not None
        partner_pids = a.cgroup.pids()
        assert len(partner_pids) >= 4, partner_pids  # bwrap, init, the bot, its sleeper
        got = report(b, "seek", partner_pids=partner_pids)
        assert got["mark"] is False, got
        assert refused(got["abstract"]), got
        assert got["sleeper_seen"] is False, got
        assert len(got["visible"]) <= 3, got["visible"]  # its init, itself, a moment's child
        assert all(refused(r) for r in got["host_pids"].values()), got["host_pids"]
        assert got["killed"] == [], got["killed"]  # not even its own init
        kept = report(a, "still")
        assert kept == {"sleeper_alive": True, "listening": True, "mark": "a"}, kept
        assert a.cgroup.pids() == partner_pids
        assert b.play(VIEW).move == LEGAL[0]
