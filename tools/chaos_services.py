"""What ``hearts bench chaos`` runs and breaks: a private PostgreSQL and Redis, and cluster nodes under libfaketime.

Nothing here touches the machine's own PostgreSQL or Redis: the bench starts its own, on free loopback ports in its
own folder, so that it may kill, pause and restart them.

- ``PrivatePostgres``: Debian's ``initdb`` and ``postgres`` (``/usr/lib/postgresql/*/bin``; run as the ``postgres``
  user when the bench runs as root, since both refuse root), trust authentication, loopback only. ``kill`` is
  ``kill -9`` of the whole instance (the postmaster and its backends, one process group, as a crash of its machine or
  container would leave it); ``start`` again runs PostgreSQL's crash recovery. ``fsync`` is off: a process crash
  loses no commit either way (the page cache survives it), only a crash of the machine would.
- ``PrivateRedis``: ``redis-server`` with no automatic saving. ``restart_empty``: ``kill -9``, the dump removed, start
  (every key gone). ``restart_kept``: ``SHUTDOWN SAVE`` (Redis writes every key to its dump and exits), start (it
  loads the dump: the keys come back with their expiry times, those that ran out meanwhile gone).
- ``ChaosNode``: one ``hearts serve`` cluster node on a fixed port (a restart keeps it: the proxy in front routes to
  it), under ``LD_PRELOAD`` of Debian's libfaketime: the node reads its clock offset from a file of its own at every
  wall-clock read (``FAKETIME_NO_CACHE``), and only the wall clock is faked (``FAKETIME_DONT_FAKE_MONOTONIC``): the
  monotonic clock, which measures every lease, timer and deadline in the server, stays real. ``jump`` moves the wall
  clock forward while the node runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hartenjagen.server.settings import one_address_flags

ROOT = Path(__file__).resolve().parent.parent
FAKETIME_LIBS = (
    "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1",
    "/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1",
    "/usr/lib/faketime/libfaketime.so.1",
)
SERVING = "Hartenjagen serving on http://127.0.0.1:"


def free_port() -> int:
    """A free TCP port on loopback."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def postgres_bin() -> Path | None:
    """The newest of Debian's PostgreSQL server binaries (``initdb`` and ``postgres``), if installed."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/postgres"), key=lambda p: int(p.parent.parent.name))
    return found[-1].parent if found else None


def faketime_lib() -> str | None:
    """Debian's libfaketime (package ``faketime``), if installed."""
    return next((lib for lib in FAKETIME_LIBS if Path(lib).exists()), None)


def missing() -> str | None:
    """What the bench needs and this machine lacks (None: nothing): ``tools/ensure_services.sh`` installs it."""
    lacking = []
    if postgres_bin() is None:
        lacking.append("PostgreSQL's server (Debian package postgresql)")
    if shutil.which("redis-server") is None:
        lacking.append("redis-server")
    if faketime_lib() is None:
        lacking.append("libfaketime (Debian package faketime)")
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            lacking.append("the postgres user (PostgreSQL refuses to run as root)")
    if not lacking:
        return None
    return "hearts bench chaos needs " + ", ".join(lacking) + ": run tools/ensure_services.sh"


def _port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


class PrivatePostgres:
    """A PostgreSQL instance of the bench's own, in ``folder``, on a free loopback port."""

    def __init__(self, log: Path) -> None:
        # its own folder under the system's temporary folder: the postgres user must reach it (a logs folder under
        # root's home would not do)
        self.folder = Path(tempfile.mkdtemp(prefix="hearts-chaos-pg-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self.bin = postgres_bin()
        self.proc: subprocess.Popen[bytes] | None = None
        self.user = "postgres" if os.geteuid() == 0 else None  # initdb and postgres refuse to run as root
        self.log = log

    def _owned(self, path: Path) -> None:
        if self.user is not None:
            entry = pwd.getpwnam(self.user)
            os.chown(path, entry.pw_uid, entry.pw_gid)

    def init(self) -> None:
        """``initdb`` into the data folder (trust authentication, UTF-8)."""
        assert self.bin is not None, "no PostgreSQL server binaries"
        self.folder.chmod(0o755)
        self._owned(self.folder)
        argv = [str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "UTF8",
                "--no-sync", "--locale", "C"]  # fmt: skip
        subprocess.run(argv, check=True, capture_output=True, user=self.user, timeout=120)

    def start(self) -> None:
        """Start the postmaster (its own process group); returns at once, see ``wait``."""
        assert self.bin is not None
        argv = [str(self.bin / "postgres"), "-D", str(self.data), "-p", str(self.port),
                "-c", "listen_addresses=127.0.0.1", "-c", f"unix_socket_directories={self.folder}",
                "-c", "fsync=off", "-c", "max_connections=200", "-c", "shared_buffers=32MB"]  # fmt: skip
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(argv, stdout=out, stderr=out, stdin=subprocess.DEVNULL, user=self.user,
                                         start_new_session=True)  # fmt: skip

    async def wait(self, timeout: float = 60.0) -> None:
        """Wait until it takes connections (after a crash: once its recovery is done)."""
        import asyncpg

        deadline = time.monotonic() + timeout
        while True:
            try:
                conn = await asyncpg.connect(self.url("postgres"), timeout=2)
                await conn.close()
                return
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError) as exc:
                if self.proc is not None and self.proc.poll() is not None:
                    raise RuntimeError(f"postgres exited: {self.log.read_text(errors='replace')[-2000:]}") from exc
                if time.monotonic() > deadline:
                    raise RuntimeError(f"postgres did not answer within {timeout:.0f} s") from exc
                await asyncio.sleep(0.1)

    def url(self, database: str, port: int | None = None) -> str:
        """The URL of ``database`` here (through ``port``, a proxy in front, when given)."""
        return f"postgresql://postgres@127.0.0.1:{port or self.port}/{database}"

    async def create(self, database: str) -> None:
        """Create an empty database."""
        import asyncpg

        conn = await asyncpg.connect(self.url("postgres"))
        try:
            await conn.execute(f'CREATE DATABASE "{database}"')
        finally:
            await conn.close()

    def kill(self) -> None:
        """``kill -9`` of the postmaster and every backend (its process group)."""
        if self.proc is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(10)

    def stop(self) -> None:
        """Stop it for good (fast shutdown, then whatever is left)."""
        if self.proc is None or self.proc.poll() is not None:
            self.kill()
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.proc.pid, signal.SIGINT)
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            pass
        self.kill()
        shutil.rmtree(self.folder, ignore_errors=True)


class PrivateRedis:
    """A redis-server of the bench's own, in ``folder``, on a free loopback port, saving only when told to."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = folder / "redis.log"

    @property
    def dump(self) -> Path:
        """Where ``SHUTDOWN SAVE`` writes every key, and where a start reads them from."""
        return self.folder / "dump.rdb"

    def start(self) -> None:
        """Start redis-server (loading the dump, if there is one)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        argv = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                "--dir", str(self.folder), "--dbfilename", "dump.rdb", "--logfile", str(self.log)]  # fmt: skip
        self.proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     stdin=subprocess.DEVNULL, start_new_session=True)  # fmt: skip

    async def wait(self, timeout: float = 30.0) -> None:
        """Wait until it answers PING (after loading its dump)."""
        from redis.asyncio import Redis
        from redis.exceptions import BusyLoadingError, RedisError

        deadline = time.monotonic() + timeout
        client = Redis(port=self.port, socket_timeout=1, socket_connect_timeout=1)
        try:
            while True:
                try:
                    await client.ping()
                    return
                except (RedisError, BusyLoadingError, OSError) as exc:
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"redis-server did not answer within {timeout:.0f} s") from exc
                    await asyncio.sleep(0.05)
        finally:
            await client.aclose()

    @property
    def url(self) -> str:
        """Its URL (the checker's; the nodes reach it through their proxies)."""
        return f"redis://127.0.0.1:{self.port}"

    def kill(self) -> None:
        """``kill -9``: every key not saved is gone."""
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(10)

    async def restart_empty(self) -> None:
        """``kill -9``, no dump, start: Redis comes back with no key at all."""
        self.kill()
        self.dump.unlink(missing_ok=True)
        self.start()
        await self.wait()

    async def shutdown_save(self) -> None:
        """``SHUTDOWN SAVE``: Redis writes its dump and exits."""
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        writer.write(b"SHUTDOWN SAVE\r\n")
        await writer.drain()
        with contextlib.suppress(OSError):
            await asyncio.wait_for(reader.read(), 10)  # the server closes the connection as it exits
        writer.close()
        assert self.proc is not None
        deadline = time.monotonic() + 10
        while self.proc.poll() is None and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        if self.proc.poll() is None:
            raise RuntimeError("redis-server did not exit on SHUTDOWN SAVE")

    async def restart_kept(self) -> None:
        """``SHUTDOWN SAVE``, start with the dump: Redis comes back with every key it had."""
        await self.shutdown_save()
        self.start()
        await self.wait()


class ChaosNode:
    """One ``hearts serve`` cluster node on a fixed loopback port, its wall clock under the bench's control."""

    def __init__(self, name: str, folder: Path, db: str, redis: str, prefix: str, lease_ms: int) -> None:
        self.name, self.folder = name, folder
        self.port = free_port()
        self.clock = folder / f"{name}.faketime"
        self.offset = 0  # seconds the node's wall clock is ahead of the machine's
        self.proc: subprocess.Popen[bytes] | None = None
        self.stopped = False  # SIGSTOP without its SIGCONT yet
        self.starts = 0
        self.argv = [sys.executable, "-m", "hartenjagen.server.cli", "serve", "--host", "127.0.0.1",
                     "--port", str(self.port), "--db", db, "--redis", redis, "--redis-prefix", prefix,
                     "--node", name, "--lease-ms", str(lease_ms), "--bot-delay", "0.1", "--bot-workers", "0",
                     "--prune-days", "0", *one_address_flags()]  # fmt: skip

    def environment(self) -> dict[str, str]:
        """The node's environment: no HEARTS_ settings of the bench's own, libfaketime on the wall clock only."""
        env = {k: v for k, v in os.environ.items() if not k.startswith(("HEARTS_", "FAKETIME"))}
        env["PYTHONUNBUFFERED"] = "1"
        lib = faketime_lib()
        if lib is not None:
            env["LD_PRELOAD"] = lib
            env["FAKETIME_TIMESTAMP_FILE"] = str(self.clock)
            env["FAKETIME_NO_CACHE"] = "1"  # the file is read at every wall-clock read: a jump takes at once
            env["FAKETIME_DONT_FAKE_MONOTONIC"] = env["DONT_FAKE_MONOTONIC"] = "1"  # (the older name too)
        return env

    @property
    def out(self) -> Path:
        """The output of its latest start (the serving line)."""
        return self.folder / f"{self.name}.out"

    @property
    def err(self) -> Path:
        """Its log, every start appended."""
        return self.folder / f"{self.name}.err"

    async def start(self, timeout: float = 60.0) -> None:
        """Start the node (a fresh process: its wall clock right again) and wait for its serving line."""
        self.offset = 0
        self.clock.write_text("+0\n")
        self.starts += 1
        with open(self.out, "wb") as out, open(self.err, "ab") as err:
            err.write(f"---- start {self.starts} at {time.time():.3f}\n".encode())
            err.flush()
            self.proc = subprocess.Popen(self.argv, cwd=ROOT, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                         env=self.environment(), start_new_session=True)  # fmt: skip
        self.stopped = False
        deadline = time.monotonic() + timeout
        while SERVING not in self.out.read_text(errors="replace"):
            if self.proc.poll() is not None:
                raise RuntimeError(f"node {self.name} exited ({self.proc.returncode}): {self.tail()}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"node {self.name} did not start within {timeout:.0f} s: {self.tail()}")
            await asyncio.sleep(0.05)

    def tail(self, lines: int = 20) -> str:
        """The end of its log."""
        text = self.err.read_text(errors="replace") if self.err.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    @property
    def alive(self) -> bool:
        """True while its process runs (paused or not)."""
        return self.proc is not None and self.proc.poll() is None

    def signal(self, sig: int) -> None:
        """Send ``sig`` to the node's process group."""
        if self.alive:
            assert self.proc is not None
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, sig)

    def kill(self) -> None:
        """``kill -9``."""
        if self.proc is None:
            return
        self.signal(signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(10)
        self.stopped = False

    def pause(self) -> None:
        """SIGSTOP."""
        self.signal(signal.SIGSTOP)
        self.stopped = True

    def resume(self) -> None:
        """SIGCONT."""
        self.signal(signal.SIGCONT)
        self.stopped = False

    def jump(self, seconds: int) -> None:
        """Move the node's wall clock ``seconds`` forward, now (never back while it runs)."""
        self.offset += seconds
        tmp = self.clock.with_suffix(".tmp")
        tmp.write_text(f"+{self.offset}\n")
        tmp.replace(self.clock)  # whole or not at all: the node never reads half a line

    async def terminate(self, timeout: float = 20.0) -> int | None:
        """SIGTERM (SIGCONT first if paused) and wait; SIGKILL after ``timeout``; return its exit code."""
        if not self.alive:
            return self.proc.returncode if self.proc is not None else None
        assert self.proc is not None
        self.resume()
        self.proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        if self.proc.poll() is None:
            self.kill()
        return self.proc.returncode
