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
import ssl
import subprocess
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CONF = ROOT / "deploy" / "nginx.conf"
CLIENT = ROOT / "client"  # served from disk as the image's /srv/hearts/client (the runtime once fetched)
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


def make_certificate(tmp: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and its key (openssl), for TLS on loopback."""
    cert, key = tmp / "fullchain.pem", tmp / "privkey.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
         "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    return cert, key


def render(
    text: str,
    ports: dict[str, int],
    listen: Listen,
    tmp: Path,
    nginx: str,
    routes: bool = True,
    tls: bool = False,
    count_loopback: bool = False,
    loopback_inside: bool = True,
) -> str:
    """deploy/nginx.conf for loopback: ``ports`` maps node names of ``NODES`` to ports; files in ``tmp``.

    ``routes=False`` leaves out the header that tells the nodes of the route to each node: a plain round-robin
    proxy that knows nothing of the nodes, behind which the nodes relay. ``tls``: HTTPS with a self-signed
    certificate for 127.0.0.1 (in ``tmp``), else plain HTTP on the same port. ``count_loopback``: the limits per
    address count loopback too (the shipped file leaves it out).
    """
    for name in NODES:
        assert len(re.findall(rf"server {name}:8000\b", text)) == 2, name  # the balanced group and its own
        if name in ports:
            text = re.sub(rf"server {name}:8000\b", f"server 127.0.0.1:{ports[name]}", text)
        else:
            text = re.sub(rf"\n\s*server {name}:8000 [^\n]*;", "", text)
            text = re.sub(rf"\n\s*upstream {name} \{{\s*server {name}:8000;\s*\}}", "", text)
    names = "|".join(name for name in NODES if name in ports)
    assert text.count("(" + "|".join(NODES) + ")") == 2  # the websocket and the operator's paths
    text = text.replace("(" + "|".join(NODES) + ")", f"({names})")
    if not routes:
        assert text.count(ROUTE_HEADER_LINE) == 1
        text = text.replace(ROUTE_HEADER_LINE, "")
    if not loopback_inside:
        assert text.count("allow 127.0.0.0/8;") == text.count("allow ::1;") == 2
        text = text.replace("allow 127.0.0.0/8;", "").replace("allow ::1;", "")
    if count_loopback:
        for line in ("127.0.0.0/8 0;", "::1 0;"):
            assert text.count(line) == 1, line
            text = text.replace(line, "")
    for shipped, port in (("listen 80;", listen.redirect), ("listen 8081;", listen.internal)):
        assert text.count(shipped) == 1, shipped
        text = text.replace(shipped, f"listen 127.0.0.1:{port};")
    assert text.count("listen 443 ssl;") == 1
    if tls:
        cert, key = make_certificate(tmp)
        text = text.replace("listen 443 ssl;", f"listen 127.0.0.1:{listen.site} ssl;")
        text = text.replace("/etc/nginx/tls/fullchain.pem", str(cert)).replace("/etc/nginx/tls/privkey.pem", str(key))
    else:
        text = text.replace("listen 443 ssl;", f"listen 127.0.0.1:{listen.site};")
        text = re.sub(r"\n\s*ssl_[a-z_]+ [^\n]*;", "", text)
    assert text.count("root /srv/hearts/client;") == 1
    text = text.replace("root /srv/hearts/client;", f"root {CLIENT};")
    text = re.sub(r"^worker_processes \S+;", "worker_processes 2;", text, count=1, flags=re.M)
    text = re.sub(r"^(\s*)access_log \S+;", rf"\1access_log {tmp}/access.log;", text, count=1, flags=re.M)
    text = re.sub(r"^(\s*)error_log \S+ ", rf"\1error_log {tmp}/error.log ", text, count=1, flags=re.M)
    built = subprocess.run([nginx, "-V"], capture_output=True, text=True, timeout=10).stderr
    temps = [("client_body", "client_body"), ("proxy", "proxy")]
    temps += [(m, m) for m in ("fastcgi", "uwsgi", "scgi") if f"--without-http_{m}_module" not in built]
    paths = "".join(f"\n    {directive}_temp_path {tmp}/{sub};" for directive, sub in temps)
    assert text.count("http {") == 1
    return text.replace("http {", "http {" + paths, 1)


@dataclass(frozen=True)
class Listen:
    """The loopback ports of a rendered config: the site (443 shipped), the redirect (80), the operator's (8081)."""

    site: int
    redirect: int
    internal: int

    @classmethod
    def free(cls) -> Listen:
        """Three free ports."""
        return cls(free_port(), free_port(), free_port())


class Nginx:
    """One nginx master (and its workers) in its own process group, on a rendered copy of deploy/nginx.conf."""

    def __init__(self, nginx: str, conf: Path, tmp: Path, listen: Listen, tls: bool = False) -> None:
        self.listen = listen
        self.port = listen.site
        self.tls = tls
        self.args = [nginx, "-p", f"{tmp}/", "-c", str(conf), "-e", f"{tmp}/error.log"]
        self.globals = f"daemon off; master_process on; pid {tmp}/nginx.pid;"
        self.out, self.err, self.tmp = tmp / "nginx.out", tmp / "nginx.err", tmp
        self.proc: subprocess.Popen[bytes] | None = None
        self.context: ssl.SSLContext | None = None  # with tls: trusts the self-signed certificate
        if tls:
            self.context = ssl.create_default_context(cafile=str(tmp / "fullchain.pem"))

    @classmethod
    def run(
        cls,
        ports: dict[str, int],
        tmp: Path,
        routes: bool = True,
        nginx: str | None = None,
        tls: bool = False,
        count_loopback: bool = False,
        loopback_inside: bool = True,
    ) -> Nginx:
        """Render deploy/nginx.conf for ``ports`` into ``tmp`` and start it; return it listening."""
        binary = nginx or nginx_binary()
        if binary is None:
            raise RuntimeError("no nginx binary: run tools/ensure_services.sh (it installs Debian's nginx)")
        listen = Listen.free()
        conf = tmp / "nginx.conf"
        text = render(CONF.read_text(), ports, listen, tmp, binary, routes, tls, count_loopback, loopback_inside)
        conf.write_text(text)
        return cls(binary, conf, tmp, listen, tls).start()

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

    @property
    def site(self) -> str:
        """The site's address through the proxy (https with ``tls``)."""
        return f"{'https' if self.tls else 'http'}://127.0.0.1:{self.port}"

    def get(self, path: str) -> Any:
        """GET ``path`` through the proxy; the JSON body."""
        with urllib.request.urlopen(self.site + path, timeout=5, context=self.context) as resp:
            return json.loads(resp.read())

    @property
    def ws(self) -> str:
        """The site's websocket address through the proxy."""
        return f"{'wss' if self.tls else 'ws'}://127.0.0.1:{self.port}/ws"

    def ws_path(self, path: str) -> str:
        """The websocket address of ``path`` (a ``moved`` path) through the proxy."""
        return self.ws[: -len("/ws")] + path

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
