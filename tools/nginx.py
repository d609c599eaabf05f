"""The shipped proxy (deploy/nginx.conf) run for real on loopback, in front of real nodes: for tests and benches.

``render`` turns the compose file's config into one for this machine: the nodes ``node1``.. are the given loopback
ports (nodes not given are left out of every group and route), the proxy listens on a loopback port, and its logs,
pid and temporary files go to one folder. ``Nginx`` runs it as one process group and stops it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any

CONF = Path(__file__).resolve().parent.parent / "deploy" / "nginx.conf"
NODES = ("node1", "node2", "node3")  # the names the shipped config routes to (compose's HEARTS_NODE)
ROUTE_HEADER_LINE = 'proxy_set_header X-Hearts-Route "/n/{node}/ws";'


def nginx_binary() -> str | None:
    """Debian's nginx, if installed (``tools/ensure_services.sh`` installs it)."""
    return shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin:/sbin")


def free_port() -> int:
    """A free TCP port on loopback."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def render(text: str, ports: dict[str, int], listen: int, tmp: Path, nginx: str, routes: bool = True) -> str:
    """deploy/nginx.conf for loopback: ``ports`` maps node names of ``NODES`` to ports; files in ``tmp``.

    ``routes=False`` leaves out the header that tells the nodes of the route to each node: a plain round-robin
    proxy that knows nothing of the nodes, behind which the nodes relay.
    """
    for name in NODES:
        assert len(re.findall(rf"server {name}:8000\b", text)) == 2, name  # the balanced group and its own
        if name in ports:
            text = re.sub(rf"server {name}:8000\b", f"server 127.0.0.1:{ports[name]}", text)
        else:
            text = re.sub(rf"\n\s*server {name}:8000 [^\n]*;", "", text)
            text = re.sub(rf"\n\s*upstream {name} \{{\s*server {name}:8000;\s*\}}", "", text)
    names = "|".join(name for name in NODES if name in ports)
    assert text.count("(" + "|".join(NODES) + ")") == 1
    text = text.replace("(" + "|".join(NODES) + ")", f"({names})")
    if not routes:
        assert text.count(ROUTE_HEADER_LINE) == 1
        text = text.replace(ROUTE_HEADER_LINE, "")
    assert text.count("listen 8000;") == 1
    text = text.replace("listen 8000;", f"listen 127.0.0.1:{listen};")
    text = re.sub(r"^worker_processes \S+;", "worker_processes 2;", text, count=1, flags=re.M)
    text = re.sub(r"^(\s*)access_log \S+;", rf"\1access_log {tmp}/access.log;", text, count=1, flags=re.M)
    text = re.sub(r"^(\s*)error_log \S+ ", rf"\1error_log {tmp}/error.log ", text, count=1, flags=re.M)
    built = subprocess.run([nginx, "-V"], capture_output=True, text=True, timeout=10).stderr
    temps = [("client_body", "client_body"), ("proxy", "proxy")]
    temps += [(m, m) for m in ("fastcgi", "uwsgi", "scgi") if f"--without-http_{m}_module" not in built]
    paths = "".join(f"\n    {directive}_temp_path {tmp}/{sub};" for directive, sub in temps)
    assert text.count("http {") == 1
    return text.replace("http {", "http {" + paths, 1)


class Nginx:
    """One nginx master (and its workers) in its own process group, on a rendered copy of deploy/nginx.conf."""

    def __init__(self, nginx: str, conf: Path, tmp: Path, port: int) -> None:
        self.port = port
        self.args = [nginx, "-p", f"{tmp}/", "-c", str(conf), "-e", f"{tmp}/error.log"]
        self.globals = f"daemon off; master_process on; pid {tmp}/nginx.pid;"
        self.out, self.err, self.tmp = tmp / "nginx.out", tmp / "nginx.err", tmp
        self.proc: subprocess.Popen[bytes] | None = None

    @classmethod
    def run(cls, ports: dict[str, int], tmp: Path, routes: bool = True, nginx: str | None = None) -> Nginx:
        """Render deploy/nginx.conf for ``ports`` into ``tmp`` and start it; return it listening."""
        binary = nginx or nginx_binary()
        if binary is None:
            raise RuntimeError("no nginx binary: run tools/ensure_services.sh (it installs Debian's nginx)")
        listen = free_port()
        conf = tmp / "nginx.conf"
        conf.write_text(render(CONF.read_text(), ports, listen, tmp, binary, routes))
        return cls(binary, conf, tmp, listen).start()

    def check(self) -> subprocess.CompletedProcess[str]:
        """``nginx -t`` of the rendered config."""
        return subprocess.run([*self.args, "-t", "-g", self.globals], capture_output=True, text=True, timeout=20)

    def start(self, timeout: float = 10.0) -> Nginx:
        """Start nginx and wait until it accepts connections."""
        with open(self.out, "wb") as out, open(self.err, "wb") as err:
            self.proc = subprocess.Popen(
                [*self.args, "-g", self.globals], stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                start_new_session=True,
            )  # fmt: skip
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"nginx exited with {self.proc.returncode}:\n{self.log()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"nginx did not listen on {self.port}:\n{self.log()}")

    def log(self) -> str:
        """What nginx wrote to its error logs."""
        files = [self.err, self.tmp / "error.log"]
        return "\n".join(f.read_text(errors="replace") for f in files if f.exists())

    def get(self, path: str) -> Any:
        """GET ``path`` through the proxy; the JSON body."""
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=5) as resp:
            return json.loads(resp.read())

    @property
    def ws(self) -> str:
        """The site's websocket address through the proxy."""
        return f"ws://127.0.0.1:{self.port}/ws"

    def cpu_seconds(self) -> float:
        """The CPU time of the master and its workers so far (from /proc)."""
        total = 0.0
        if self.proc is None:
            return total
        tick = os.sysconf("SC_CLK_TCK")
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == self.proc.pid or int(entry.name) == self.proc.pid:  # its process group
                total += (int(fields[11]) + int(fields[12])) / tick
        return total

    def stop(self) -> None:
        """Fast shutdown, then whatever is left of the process group."""
        if self.proc is None:
            return
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(self.proc.pid, sig)
            except (ProcessLookupError, PermissionError):
                break
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                continue
