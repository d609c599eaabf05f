# Hartenjagen table server: web client, websocket and stats on one port, SQLite on a volume.
# The image also runs as a cluster node (asyncpg and redis are installed): set HEARTS_DB=postgresql://...,
# HEARTS_REDIS and HEARTS_NODE (deploy/compose.yaml does); without them it stays one node on SQLite. With the metrics
# extra each node serves GET /metrics to loopback and its trusted proxies (deploy/prometheus.yml scrapes it).
#
# Where no image registry is reachable, build a stand-in base from Debian's packages first and pass it as BASE
# (tools/image_check.sh does both): docker build --build-arg BASE=hartenjagen-base:bookworm -t hartenjagen .
ARG BASE=python:3.11-slim

# ---- build: the package from this checkout (a wheel with the client and the migrations inside), pinned deps
FROM ${BASE} AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml README.md constraints-server.txt ./
COPY server ./server
COPY shared ./shared
COPY tools ./tools
COPY client ./client
COPY migrations ./migrations
# the offline game's runtime (the npm registry's pyodide, checked against its pinned hash) into client/runtime/, so the
# wheel below carries it and the server sends it from the installed package; only the standard library is needed here
RUN python3 tools/runtime_fetch.py --client-dir client
# every dependency checked against its pinned hash (constraints-server.txt: the cluster, fast, metrics, speed extras),
# then the package itself (pip cannot hash a folder)
RUN python3 -m venv /opt/hearts && /opt/hearts/bin/pip install --require-hashes -r constraints-server.txt \
    && /opt/hearts/bin/pip install --no-deps .

# ---- proxy (deploy/compose.yaml builds this stage for nginx): Debian's nginx with the client's files, the offline
# runtime included, which it serves itself (deploy/nginx.conf); the configuration and certificates are mounted
FROM ${BASE} AS proxy
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nginx \
    && rm -rf /var/lib/apt/lists/* && ln -sf /dev/stdout /var/log/nginx/access.log && ln -sf /dev/stderr /var/log/nginx/error.log
COPY --from=build /src/client /srv/hearts/client
EXPOSE 80 443 8081
CMD ["nginx", "-g", "daemon off;"]

# ---- run: the installed package only (no second copy of the code), its look-ahead compiled for that code
FROM ${BASE}
ENV PATH=/opt/hearts/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    HEARTS_HOST=0.0.0.0 \
    HEARTS_PORT=8000 \
    HEARTS_DB=/data/hearts.db \
    NUMBA_CACHE_DIR=/var/cache/hartenjagen/numba \
    NUMBA_CPU_NAME=generic \
    HEARTS_ALLOCATOR=jemalloc
# Debian's jemalloc, which the server runs on here (HEARTS_ALLOCATOR above; docs/server.md, Memory): after a burst of
# connections it hands more than half of their memory back to the system, where Python's own allocator keeps it all
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libjemalloc2 \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /opt/hearts /opt/hearts
RUN useradd --create-home --uid 10001 hearts && mkdir -p /data "$NUMBA_CACHE_DIR" \
    && chown hearts:hearts /data "$NUMBA_CACHE_DIR"
USER hearts
# compile the hard player's look-ahead for the installed code, where numba looks for it at run time: the first
# hard decision of a new container loads it (about a second) instead of compiling inside a timed decision.
# NUMBA_CPU_NAME=generic (above): numba keys its cache by CPU model and features, so a cache compiled for the build
# machine's CPU is missed on any other and compiled inside the first hard decisions (past the 5 s decision
# timeout); compiled for the generic CPU of the architecture it loads on every machine (the search as fast here)
RUN python -c "from hartenjagen.shared.bots import kernel; assert kernel.warm() and kernel.cached(), kernel.cache_folder()"
VOLUME ["/data"]
EXPOSE 8000

HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
    CMD python -c "import os, sys, urllib.request; url = 'http://127.0.0.1:%s/healthz' % os.environ.get('HEARTS_PORT', '8000'); sys.exit(0 if urllib.request.urlopen(url, timeout=4).status == 200 else 1)"

# every setting comes from HEARTS_* variables (HEARTS_HOST, HEARTS_PORT, HEARTS_DB, ...): no flag overrides them here
CMD ["hearts", "serve"]
