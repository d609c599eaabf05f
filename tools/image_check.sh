#!/usr/bin/env bash
# End-to-end check of the project's Docker image on this machine: build, health, a whole game against hard computer
# players in a fresh container, SIGTERM, restore from the volume, HEARTS_HOST, a data folder it cannot write, and
# that deploy/compose.yaml parses. One line per check ("ok" or "FAIL" with its figures); exits 1 on any failure.
#
#     bash tools/image_check.sh [--clean]
#
# Where docker does not answer it installs Debian's docker.io and starts dockerd; where python:3.11-slim is neither
# local nor pullable it builds a stand-in base from Debian's packages (debootstrap) and builds on that. Servers
# listen on loopback only. Containers and volumes it makes are removed at the end; the images stay for a faster
# next run unless --clean is given. Settings: IMAGE (default hartenjagen:latest).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

IMAGE=${IMAGE:-hartenjagen:latest}
BUILD_IMAGE=${IMAGE%%:*}-build:latest  # the Dockerfile's build stage, tagged so that a rebuild can remove the old one
UPSTREAM_BASE=python:3.11-slim
STANDIN_BASE=hartenjagen-base:bookworm
LABEL=hartenjagen.image-check=1  # on every container and volume this script makes, for the clean-up
NAME=hj-check
VOLUME=hj-check-data
CLEAN=0
for arg in "$@"; do
  case $arg in
    --clean) CLEAN=1 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) echo "unknown argument: $arg (only --clean)" >&2; exit 2 ;;
  esac
done

FAILED=0
WORK=$(mktemp -d /tmp/hj-image-check.XXXXXX)
ok() { printf 'ok    %s\n' "$*"; }
fail() { printf 'FAIL  %s\n' "$*"; FAILED=$((FAILED + 1)); }
note() { printf '      %s\n' "$*"; }
die() { fail "$*"; exit 1; }
start_clock() { date +%s%N; }
secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }'; }  # seconds since a clock

# ---- clean-up: containers and volumes of this script (also a previous, interrupted run's); --clean: images too
remove_ours() {
  local ids
  mapfile -t ids < <(docker ps -aq --filter "label=$LABEL" 2>/dev/null || true)
  if ((${#ids[@]})); then docker rm -fv "${ids[@]}" >/dev/null 2>&1 || true; fi
  mapfile -t ids < <(docker volume ls -q --filter "label=$LABEL" 2>/dev/null || true)
  if ((${#ids[@]})); then docker volume rm -f "${ids[@]}" >/dev/null 2>&1 || true; fi
}
finish() {
  local rc=$?
  remove_ours
  rm -rf "$WORK"
  if ((CLEAN)); then docker image rm -f "$IMAGE" "$BUILD_IMAGE" "$STANDIN_BASE" >/dev/null 2>&1 || true; fi
  if [[ -n ${STARTED_DOCKERD:-} ]]; then kill "$STARTED_DOCKERD" 2>/dev/null || true; fi
  exit $rc
}
trap finish EXIT
trap 'fail "the script stopped at line $LINENO: $BASH_COMMAND"' ERR  # a step that failed outside any check

# GET http://127.0.0.1:PORT/PATH: prints the body, fails on no answer or a status other than 200
get() { python3 - "$1" <<'EOF'
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=3) as r:
    sys.stdout.buffer.write(r.read())
EOF
}
json_field() { python3 -c 'import json, sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }
host_port() { docker port "$1" 8000/tcp | sed -n 's/^127\.0\.0\.1:\([0-9]*\)$/\1/p' | head -1; }
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# wait up to $2 s for /healthz on 127.0.0.1:$1; prints the answer; fails when it never comes
wait_healthz() {
  local deadline=$((SECONDS + $2))
  while ((SECONDS < deadline)); do
    get "http://127.0.0.1:$1/healthz" 2>/dev/null && return 0
    sleep 0.2
  done
  return 1
}
# wait up to $2 s for container $1's own HEALTHCHECK to say healthy; prints the last status
wait_healthy() {
  local deadline=$((SECONDS + $2)) status=
  while ((SECONDS < deadline)); do
    status=$(docker inspect -f '{{.State.Health.Status}}' "$1" 2>/dev/null || echo gone)
    [[ $status == healthy || $status == unhealthy || $status == gone ]] && break
    sleep 0.5
  done
  echo "$status"
}
# a container's log lines matching $2 (case-sensitive), at most five
log_lines() { docker logs "$1" 2>&1 | grep -F -- "$2" | head -5 || true; }

# the websocket player (tools/image_game.py) runs on the checkout's .venv, a python3 with the project, or the image
client() {
  if [[ -n $CLIENT_PY ]]; then
    "$CLIENT_PY" "$ROOT/tools/image_game.py" "$@"
  else
    docker run --rm --network host --label "$LABEL" -v "$ROOT/tools/image_game.py:/tmp/image_game.py:ro" \
      "$IMAGE" python /tmp/image_game.py "$@"
  fi
}
CLIENT_PY=
for py in "$ROOT/.venv/bin/python" python3; do  # a Python with the project installed (the scripted client)
  if command -v "$py" >/dev/null && "$py" -c 'import hartenjagen.tools.wsclient' 2>/dev/null; then CLIENT_PY=$py; break; fi
done

# ================================================================ 1. docker, base image, build
t=$(start_clock)
# a dockerd that is still starting or stopping: wait until it answers or is gone
for _ in $(seq 60); do
  if docker info >/dev/null 2>&1 || ! pgrep -x dockerd >/dev/null; then break; fi
  sleep 0.5
done
if ! docker info >/dev/null 2>&1; then
  [[ $(id -u) == 0 ]] || die "docker does not answer and installing it needs root"
  if ! command -v dockerd >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io >/dev/null
  fi
  if [[ -d /run/systemd/system ]]; then
    systemctl start docker
  else
    nohup dockerd >>/var/log/dockerd.log 2>&1 &
    STARTED_DOCKERD=$!  # stopped again at the end: a machine left as it was found
  fi
  for _ in $(seq 60); do docker info >/dev/null 2>&1 && break; sleep 0.5; done
  docker info >/dev/null 2>&1 || die "dockerd did not answer within 30 s (see /var/log/dockerd.log)"
  ok "docker started in $(secs "$t") s (server $(docker version -f '{{.Server.Version}}'))"
else
  ok "docker answers (server $(docker version -f '{{.Server.Version}}'))"
fi
remove_ours  # leftovers of an interrupted run
VOLUMES_BEFORE=$(docker volume ls -q | sort)  # to tell that no volume is left behind, anonymous ones included

# the base: python:3.11-slim where it is here or can be pulled, else a stand-in built from Debian's packages
t=$(start_clock)
if docker image inspect "$UPSTREAM_BASE" >/dev/null 2>&1; then
  BASE=$UPSTREAM_BASE
  ok "base $BASE is here"
elif timeout 120 docker pull -q "$UPSTREAM_BASE" >/dev/null 2>&1; then
  BASE=$UPSTREAM_BASE
  ok "base $BASE pulled in $(secs "$t") s"
elif docker image inspect "$STANDIN_BASE" >/dev/null 2>&1; then
  BASE=$STANDIN_BASE
  ok "base: $UPSTREAM_BASE cannot be pulled; using the stand-in $STANDIN_BASE built before"
else
  BASE=$STANDIN_BASE
  command -v debootstrap >/dev/null || {
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
  }
  # the mirror apt uses here (deb822 or one-line sources), else Debian's own
  mirror=$(sed -n 's/^URIs: *\([^ ]*debian\/\?\)$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1)
  [[ -n $mirror ]] || mirror=$(awk '$1 == "deb" && $3 == "bookworm" { print $2; exit }' /etc/apt/sources.list 2>/dev/null)
  [[ -n $mirror ]] || mirror=http://deb.debian.org/debian
  rootfs=$WORK/rootfs
  debootstrap --variant=minbase --include=python3,python3-venv,ca-certificates bookworm "$rootfs" "$mirror" \
    >"$WORK/debootstrap.log" 2>&1 || { tail -20 "$WORK/debootstrap.log"; die "debootstrap of bookworm failed"; }
  # certificate authorities this machine added (a TLS-inspecting egress proxy): pip in the build must trust them
  cas=(); for ca in /usr/local/share/ca-certificates/*.crt; do [[ -e $ca ]] && cas+=("$ca"); done
  if ((${#cas[@]})); then
    cp "${cas[@]}" "$rootfs/usr/local/share/ca-certificates/"
    chroot "$rootfs" update-ca-certificates >/dev/null 2>&1
  fi
  chroot "$rootfs" apt-get clean
  rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/tmp/*
  # what python:3.11-slim sets: a PATH (an imported image has none), UTF-8, python3 as the default command
  tar -C "$rootfs" -c . | docker import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV LANG=C.UTF-8' --change 'CMD ["python3"]' - "$STANDIN_BASE" >/dev/null
  rm -rf "$rootfs"
  ok "base: $UPSTREAM_BASE cannot be pulled; stand-in $STANDIN_BASE built with debootstrap from $mirror" \
    "($(docker run --rm "$STANDIN_BASE" python3 -V), ${#cas[@]} local CA certificate(s) added) in $(secs "$t") s"
fi

# the build stage needs PyPI: through the default bridge where that reaches it, else on the host's network
if docker run --rm --label "$LABEL" "$BASE" python3 -c \
  'import urllib.request; urllib.request.urlopen("https://pypi.org/simple/pip/", timeout=10)' >/dev/null 2>&1; then
  NETWORK=default
else
  NETWORK=host
fi
# BuildKit where buildx is installed; else the classic builder (Debian's docker.io has no buildx)
docker buildx version >/dev/null 2>&1 || export DOCKER_BUILDKIT=0
# the build stage is tagged too (BUILD_IMAGE), so a rebuild can drop the stage it replaces instead of leaving it dangling
old_ids=$(docker image inspect -f '{{.Id}}' "$BUILD_IMAGE" "$IMAGE" 2>/dev/null || true)
t=$(start_clock)
if ! { docker build --network "$NETWORK" --build-arg "BASE=$BASE" --target build -t "$BUILD_IMAGE" . &&
  docker build --network "$NETWORK" --build-arg "BASE=$BASE" -t "$IMAGE" .; } >"$WORK/build.log" 2>&1; then
  tail -30 "$WORK/build.log"
  die "docker build failed after $(secs "$t") s"
fi
size=$(docker image inspect -f '{{.Size}}' "$IMAGE")
new_ids=$(docker image inspect -f '{{.Id}}' "$BUILD_IMAGE" "$IMAGE")
cached=$([[ $new_ids == "$old_ids" ]] && echo "unchanged: every step cached" || echo "new")
ok "image $IMAGE built in $(secs "$t") s on $BASE (build network: $NETWORK; $cached), $((size / 1000000)) MB"
for id in $old_ids; do  # the builds this one replaced, now untagged (kept where anything still uses them)
  grep -qx -- "$id" <<<"$new_ids" || docker image rm "$id" >/dev/null 2>&1 || true
done

# the image's own promises in a fresh container: uid 10001, the installed code only, and the look-ahead's cache
# found and loaded (numba writes nothing: it compiled nothing), compiled for a CPU that is not just this machine's
probe=$(docker run --rm --label "$LABEL" "$IMAGE" python -c '
import glob, os, pickle, time, hartenjagen
from hartenjagen.shared.bots import kernel
folder = kernel.cache_folder()
files = lambda: {p: os.stat(p).st_mtime_ns for p in glob.glob(f"{folder}/*")}
before, found = files(), kernel.cached()
t = time.perf_counter(); kernel.warm(); took = time.perf_counter() - t
cpus = set()
for index in glob.glob(f"{folder}/kernel_impl.batch-*.nbi"):
    try:  # numba index: its version, then (source stamp, {(signature, (triple, cpu, features), ...): file})
        with open(index, "rb") as f:
            pickle.load(f)
            cpus |= {key[1][1] for key in pickle.loads(f.read())[1]}
    except Exception:
        cpus.add("unknown")
print(os.getuid(), found, f"{took * 1000:.0f}", files() == before, ",".join(sorted(cpus)) or "none",
      hartenjagen.__path__[0], os.path.exists("/src"))')
read -r uid found warm_ms unchanged cpus pkg src <<<"$probe"
if [[ $uid == 10001 && $pkg == /opt/hearts/* && $src == False ]]; then
  ok "fresh container: uid $uid, the installed code only ($pkg, no /src)"
else
  fail "fresh container: uid $uid, package $pkg, /src there: $src"
fi
if [[ $found == True && $unchanged == True ]] && ((warm_ms < 5000)); then
  ok "fresh container: look-ahead cache found and loaded in $warm_ms ms, nothing compiled (compiled for CPU: $cpus)"
else
  fail "fresh container: look-ahead cache found: $found, warm took $warm_ms ms, cache untouched: $unchanged"
fi
if [[ $cpus == generic ]]; then
  ok "look-ahead cache compiled for numba's generic CPU: loads on any machine of this architecture"
else
  fail "look-ahead cache compiled for CPU '$cpus' only: on any other CPU the first hard decisions compile it" \
    "inside the 5 s decision timeout (set NUMBA_CPU_NAME=generic in the Dockerfile)"
fi

# ================================================================ 2. a container on a named volume: /healthz, HEALTHCHECK
docker volume create --label "$LABEL" "$VOLUME" >/dev/null
GAME=$NAME-game
t=$(start_clock)
# HEARTS_BOT_DELAY=0: the computer moves the client times are the decisions themselves, not the 0.6 s pause;
# the health check's interval is shortened to 2 s (its command and timeout are the image's own)
docker run -d --name "$GAME" --label "$LABEL" -p 127.0.0.1::8000 -v "$VOLUME:/data" \
  -e HEARTS_BOT_DELAY=0 --health-interval 2s "$IMAGE" >/dev/null
port=$(host_port "$GAME")
if health=$(wait_healthz "$port" 60); then
  ok "/healthz answered after $(secs "$t") s on 127.0.0.1:$port: store $(json_field store <<<"$health"), tables $(json_field tables <<<"$health")"
else
  docker logs "$GAME" 2>&1 | tail -20
  die "/healthz did not answer within 60 s"
fi
# the image runs the server on Debian's jemalloc (HEARTS_ALLOCATOR=jemalloc), which counts live memory in bytes
allocator=$(json_field allocator <<<"$health")
if [[ $allocator == jemalloc ]] && [[ $health == *'"allocated_bytes"'* ]]; then
  ok "the server runs on jemalloc: /healthz allocator $allocator, $(json_field allocated_bytes <<<"$health") live bytes"
else
  fail "the server does not run on jemalloc: /healthz allocator $allocator"
fi
# the browser client came inside the installed package (index, a module, an icon)
page=$(get "http://127.0.0.1:$port/" 2>/dev/null || true)
if [[ $page == *'src="/js/main.js"'* ]] && get "http://127.0.0.1:$port/js/main.js" >/dev/null 2>&1 &&
  get "http://127.0.0.1:$port/icons/icon-192.png" >/dev/null 2>&1; then
  ok "client served from the package: /, /js/main.js, /icons/icon-192.png answer 200"
else
  fail "client files: / or /js/main.js or /icons/icon-192.png did not answer 200"
fi
# the offline game: its Python and its runtime came inside the package too (the runtime kept for a year)
if offline=$(python3 - "http://127.0.0.1:$port" <<'EOF'
import json, sys, urllib.request
base = sys.argv[1]
runtime = json.load(urllib.request.urlopen(base + "/engine/python.json", timeout=10))["runtime"]
path = runtime["base"] + "pyodide.asm.wasm"
answer = urllib.request.urlopen(base + path, timeout=30)
assert answer.headers["Cache-Control"] == "public, max-age=31536000, immutable", answer.headers["Cache-Control"]
print(f"{path} ({len(answer.read()) / 1e6:.1f} MB, immutable)")
EOF
); then
  ok "offline engine served from the package: /engine/python.json and $offline"
else
  fail "offline engine: /engine/python.json or the runtime did not answer as it should"
fi
status=$(wait_healthy "$GAME" 60)
hc=$(docker image inspect -f 'interval {{.Config.Healthcheck.Interval}}, timeout {{.Config.Healthcheck.Timeout}}' "$IMAGE")
if [[ $status == healthy ]]; then
  ok "HEALTHCHECK: healthy $(secs "$t") s after the start (the image's check, $hc; run every 2 s here)"
else
  fail "HEALTHCHECK: $status after $(secs "$t") s; $(docker inspect -f '{{json .State.Health.Log}}' "$GAME" | tail -c 400)"
fi

# ================================================================ 3. a whole game against hard computer players
t=$(start_clock)
if line=$(client game --port "$port"); then
  ok "game (fresh container, 3 hard players, client-side times): $line"
else
  fail "game: $line"
fi
# the server's own count of hard decisions (they ran in its workers) and its measured speed: a moving average of wall
# ms per nominal ms that a worker's start weighs on for a while (compiled: a few hundredths; pure Python: about 1)
hard=$(get "http://127.0.0.1:$port/healthz" | python3 -c '
import json, sys
h = json.load(sys.stdin)["hard_player"]
by = h["decisions_by_budget_ms"]
print(sum(by.values()), ", ".join(f"{k} ms: {n}" for k, n in by.items()) or "none", h["ms_per_budget_ms"], sep="\n")')
{ read -r hard_n; read -r hard_by; read -r hard_rate; } <<<"$hard"
if ((hard_n > 0)); then
  ok "server's /healthz: $hard_n hard decisions in its workers (by budget: $hard_by), $hard_rate wall ms per nominal ms"
else
  fail "server's /healthz: no hard decision made in its workers (by budget: $hard_by)"
fi
# a second table left mid-hand, for the restore after the restart (5)
if out=$(client mid --port "$port"); then
  SAVED=$(sed -n 2p <<<"$out")
  ok "second table: $(head -1 <<<"$out")"
else
  SAVED=
  fail "second table: $out"
fi
slow=$(log_lines "$GAME" "took over")
if [[ -z $slow ]]; then
  ok "container log: no hard decision hit the 5 s decision timeout (no \"took over\")"
else
  fail "container log: decisions hit the timeout:"; note "$slow"
fi

# ================================================================ 4. SIGTERM: a clean exit within seconds
t=$(start_clock)
docker stop -t 20 "$GAME" >/dev/null
took=$(secs "$t")
code=$(docker inspect -f '{{.State.ExitCode}}' "$GAME")
if [[ $code == 0 ]] && awk -v s="$took" 'BEGIN { exit !(s < 10) }'; then
  ok "docker stop (SIGTERM): exit code $code after $took s; log ends: $(docker logs "$GAME" 2>&1 | tail -1)"
else
  fail "docker stop (SIGTERM): exit code $code after $took s"; note "$(docker logs "$GAME" 2>&1 | tail -5)"
fi
tb=$(log_lines "$GAME" "Traceback")
if [[ -z $tb ]]; then
  ok "container log: no Traceback ($(docker logs "$GAME" 2>&1 | wc -l) lines)"
else
  fail "container log has a Traceback:"; docker logs "$GAME" 2>&1 | grep -A15 -F Traceback | head -40 | sed 's/^/      /'
fi

# ================================================================ 5. a new container on the same volume restores the table
RESTORE=$NAME-restore
t=$(start_clock)
docker run -d --name "$RESTORE" --label "$LABEL" -p 127.0.0.1::8000 -v "$VOLUME:/data" -e HEARTS_BOT_DELAY=0 \
  "$IMAGE" >/dev/null
port=$(host_port "$RESTORE")
if health=$(wait_healthz "$port" 60); then
  tables=$(json_field tables <<<"$health")
  if ((tables >= 1)); then
    ok "restart on the same volume: /healthz after $(secs "$t") s shows $tables open table(s)"
  else
    fail "restart on the same volume: /healthz shows $tables tables"
  fi
  if [[ -z $SAVED ]]; then
    fail "resume: no saved seat (the second table failed)"
  elif line=$(client resume --port "$port" --saved "$SAVED"); then
    ok "resume with the saved seat token: $line"
  else
    fail "resume: $line"
  fi
else
  fail "restart on the same volume: /healthz did not answer within 60 s"; note "$(docker logs "$RESTORE" 2>&1 | tail -5)"
fi
bad=$(log_lines "$RESTORE" "Traceback"; log_lines "$RESTORE" "took over")
if [[ -z $bad ]]; then
  ok "restored container's log: no Traceback, no \"took over\""
else
  fail "restored container's log:"; note "$bad"
fi
docker rm -fv "$RESTORE" >/dev/null

# ================================================================ 6. HEARTS_HOST and HEARTS_PORT on the host's network
HOSTNET=$NAME-hostnet
hport=$(free_port)
t=$(start_clock)
docker run -d --name "$HOSTNET" --label "$LABEL" --network host -e HEARTS_HOST=127.0.0.1 -e HEARTS_PORT="$hport" \
  -e HEARTS_DB=/tmp/hearts.db --health-interval 2s "$IMAGE" >/dev/null
if wait_healthz "$hport" 60 >/dev/null; then
  for _ in $(seq 25); do  # the log line may reach docker logs a moment after the port answers
    served=$(docker logs "$HOSTNET" 2>&1 | grep -o 'serving on [^ ]*' | head -1 || true)
    if [[ -n $served ]]; then break; fi
    sleep 0.2
  done
  ok "HEARTS_HOST=127.0.0.1 HEARTS_PORT=$hport (--network host): /healthz answered after $(secs "$t") s; log: $served"
  status=$(wait_healthy "$HOSTNET" 30)
  if [[ $status == healthy ]]; then
    ok "HEALTHCHECK follows HEARTS_PORT: healthy"
  else
    fail "HEALTHCHECK on port $hport: $status"
  fi
else
  fail "HEARTS_HOST/HEARTS_PORT: no /healthz on 127.0.0.1:$hport"; note "$(docker logs "$HOSTNET" 2>&1 | tail -5)"
fi
docker rm -fv "$HOSTNET" >/dev/null

# ================================================================ 7. a bind-mounted data folder the server cannot write
PERM=$NAME-perm
folder=$WORK/data-owned-by-root
mkdir -p "$folder" && chown 0:0 "$folder" && chmod 755 "$folder"
t=$(start_clock)
docker run -d --name "$PERM" --label "$LABEL" -v "$folder:/data" "$IMAGE" >/dev/null
code=$(timeout 30 docker wait "$PERM" || echo "still running")
took=$(secs "$t")
msg=$(docker logs "$PERM" 2>&1 | grep -F 'cannot start:' | head -1 || true)
if [[ $code != 0 && $code != "still running" && $msg == *"cannot write /data"* && $msg == *"uid 10001"* && $msg == *chown* ]]
then
  ok "data folder owned by root (755): exit code $code after $took s: $msg"
else
  fail "data folder owned by root (755): exit code $code after $took s; log: $(docker logs "$PERM" 2>&1 | tail -3)"
fi
docker rm -fv "$PERM" >/dev/null

# ================================================================ deploy/compose.yaml parses
if docker compose version >/dev/null 2>&1; then
  COMPOSE=(docker compose)
elif command -v docker-compose >/dev/null; then
  COMPOSE=(docker-compose)
elif [[ $(id -u) == 0 ]] && apt-get update -qq >/dev/null 2>&1 &&
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-compose >/dev/null 2>&1; then
  COMPOSE=(docker-compose)  # Debian's docker-compose (v1)
else
  COMPOSE=()
fi
if ((${#COMPOSE[@]} == 0)); then
  note "skipped: deploy/compose.yaml (neither the compose plugin nor docker-compose is installed or installable)"
elif services=$(HEARTS_PG_PASSWORD=check HEARTS_REDIS_PASSWORD=check \
    "${COMPOSE[@]}" -f deploy/compose.yaml config --services 2>"$WORK/compose.err"); then
  ok "deploy/compose.yaml parses (${COMPOSE[*]} $("${COMPOSE[@]}" version --short 2>/dev/null)): services ${services//$'\n'/ }"
  if env -u HEARTS_PG_PASSWORD -u HEARTS_REDIS_PASSWORD "${COMPOSE[@]}" -f deploy/compose.yaml config >/dev/null 2>&1; then
    fail "deploy/compose.yaml starts without HEARTS_PG_PASSWORD and HEARTS_REDIS_PASSWORD"
  else
    ok "deploy/compose.yaml refuses to start without its passwords"
  fi
else
  fail "deploy/compose.yaml does not parse: $(tail -3 "$WORK/compose.err")"
fi

# ================================================================ 8. clean-up (the exit trap does it again, and --clean)
remove_ours
left=$(docker ps -aq --filter "label=$LABEL" | wc -l)
vols=$(comm -13 <(echo "$VOLUMES_BEFORE") <(docker volume ls -q | sort) | grep -c . || true)
if ((left == 0 && vols == 0)); then
  ok "clean-up: its containers and volumes removed, no volume left behind (anonymous ones included); $( ((CLEAN)) && echo "images $IMAGE, $BUILD_IMAGE and $STANDIN_BASE removed at exit (--clean)" ||
  echo "images kept for the next run: $IMAGE, $BUILD_IMAGE, $BASE")"
else
  fail "clean-up: $left container(s) and $vols volume(s) left"
fi

if ((FAILED)); then
  echo "$FAILED check(s) FAILED"
  exit 1
fi
echo "all checks passed"
