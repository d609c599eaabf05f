# Hartenjagen table server: web client, websocket and stats on one port, SQLite on a volume.
# The image also runs as a cluster node (asyncpg and redis are installed): set HEARTS_DB=postgresql://...,
# HEARTS_REDIS and HEARTS_NODE (deploy/compose.yaml does); without them it stays one node on SQLite.
# The fast extra (numba) compiles the hard players' look-ahead.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    HEARTS_HOST=0.0.0.0 \
    HEARTS_PORT=8000 \
    HEARTS_DB=/data/hearts.db \
    HEARTS_CLIENT_DIR=/app/client \
    HEARTS_MIGRATIONS_DIR=/app/migrations \
    NUMBA_CACHE_DIR=/app/.numba-cache

WORKDIR /app
COPY pyproject.toml README.md ./
COPY shared ./shared
COPY server ./server
COPY tools ./tools
RUN pip install '.[cluster,fast]' && rm -rf build *.egg-info
COPY client ./client
COPY migrations ./migrations

RUN useradd --create-home --uid 10001 hearts && mkdir -p /data /app/.numba-cache \
    && chown hearts:hearts /data /app/.numba-cache
USER hearts
# compile the hard player's look-ahead into the image: the first start does not spend 20 s on it
RUN python -c "from shared.bots import kernel; assert kernel.warm()"
VOLUME ["/data"]
EXPOSE ${HEARTS_PORT}

HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
    CMD python -c "import os, sys, urllib.request; url = 'http://127.0.0.1:%s/healthz' % os.environ.get('HEARTS_PORT', '8000'); sys.exit(0 if urllib.request.urlopen(url, timeout=4).status == 200 else 1)"

CMD ["hearts", "serve", "--host", "0.0.0.0"]
