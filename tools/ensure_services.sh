#!/usr/bin/env bash
# Make sure PostgreSQL and Redis answer on loopback for the tests; where nothing answers, install them from
# Debian's packages and start them (PostgreSQL with trust authentication on 127.0.0.1 and ::1 only).
# Does nothing when both already answer. Ports: HEARTS_PG_PORT (5432), HEARTS_REDIS_PORT (6379).
# Also installs Debian's nginx where the `nginx` binary is missing (tests/deploy runs its own nginx process in front
# of real nodes). It starts no nginx service: on a machine with systemd the package itself starts one on port 80
# (its default site; `systemctl disable --now nginx` stops it), where a policy-rc.d forbids it (containers) none runs.
# And what `hearts bench chaos` (tests/server/test_chaos.py) runs of its own: PostgreSQL's server binaries, redis-server
# and libfaketime (Debian's faketime), installed where missing; it starts none of them here. And Debian's jemalloc
# (libjemalloc2), which `hearts serve --allocator jemalloc` preloads.
set -euo pipefail

PG_PORT="${HEARTS_PG_PORT:-5432}"
REDIS_PORT="${HEARTS_REDIS_PORT:-6379}"
WAIT=30  # seconds a freshly started service may take to answer

say() { echo "ensure_services: $*"; }

pg_answers() {
    if command -v pg_isready >/dev/null; then
        pg_isready -q -h 127.0.0.1 -p "$PG_PORT"
    else
        (exec 3<>"/dev/tcp/127.0.0.1/$PG_PORT") 2>/dev/null
    fi
}

redis_answers() {
    local reply
    reply="$(bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1" && printf "PING\r\n" >&3 && read -r -t 2 line <&3 && echo "$line"' \
        _ "$REDIS_PORT" 2>/dev/null)" || return 1
    [[ "$reply" == +PONG* ]]
}

wait_for() {  # wait_for NAME CHECK
    local i
    for ((i = 0; i < WAIT * 5; i++)); do
        if "$2"; then say "$1 answers"; return 0; fi
        sleep 0.2
    done
    say "$1 did not answer within ${WAIT}s" >&2
    return 1
}

need() {  # need COMMAND PACKAGE...: install the Debian packages when COMMAND is missing
    command -v "$1" >/dev/null && return 0
    if [[ $EUID -ne 0 ]]; then
        say "installing ${*:2} needs root: run as root, or start them yourself" >&2
        exit 1
    fi
    say "installing ${*:2}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${@:2}" >/dev/null
}

start_postgres() {
    need pg_ctlcluster postgresql
    local version name conf
    version="$(ls /etc/postgresql 2>/dev/null | sort -V | tail -n 1)"
    if [[ -z "$version" ]]; then
        version="$(ls /usr/lib/postgresql | sort -V | tail -n 1)"
    fi
    name="$(pg_lsclusters -h 2>/dev/null | awk -v v="$version" -v p="$PG_PORT" '$1 == v && $3 == p { print $2; exit }')"
    if [[ -z "$name" ]]; then
        name=main
        [[ -d "/etc/postgresql/$version/main" ]] && name="hearts$PG_PORT"
        say "creating PostgreSQL cluster $version/$name on port $PG_PORT"
        pg_createcluster "$version" "$name" -p "$PG_PORT" >/dev/null
    fi
    conf="/etc/postgresql/$version/$name/pg_hba.conf"
    if ! grep -q "hartenjagen tests" "$conf"; then  # the first matching line wins: trust loopback before the rest
        local stock
        stock="$(cat "$conf")"
        {
            echo "# hartenjagen tests: trust on loopback only"
            echo "host all all 127.0.0.1/32 trust"
            echo "host all all ::1/128 trust"
            echo "$stock"
        } >"$conf"
    fi
    say "starting PostgreSQL $version/$name"
    pg_ctlcluster --skip-systemctl-redirect "$version" "$name" start || pg_ctlcluster "$version" "$name" reload
}

start_redis() {
    need redis-server redis-server
    say "starting Redis on port $REDIS_PORT"
    redis-server --daemonize yes --bind 127.0.0.1 --port "$REDIS_PORT" --save "" --appendonly no \
        --dir /tmp --logfile "/tmp/hearts-redis-$REDIS_PORT.log"
}

if pg_answers; then
    say "PostgreSQL answers on 127.0.0.1:$PG_PORT"
else
    start_postgres
    wait_for "PostgreSQL on 127.0.0.1:$PG_PORT" pg_answers
fi

if redis_answers; then
    say "Redis answers on 127.0.0.1:$REDIS_PORT"
else
    start_redis
    wait_for "Redis on 127.0.0.1:$REDIS_PORT" redis_answers
fi

if PATH="$PATH:/usr/sbin:/sbin" command -v nginx >/dev/null; then
    say "nginx is installed"
else
    need nginx nginx
    say "nginx installed ($(/usr/sbin/nginx -v 2>&1))"
fi

# hearts bench chaos starts a PostgreSQL and a Redis of its own (to kill them) and runs its nodes under libfaketime
server_binaries() { compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; }
if server_binaries; then
    say "PostgreSQL's server binaries are installed"
else
    need pg-server-binaries postgresql  # (no such command: the package is installed)
    server_binaries
fi
need redis-server redis-server
if command -v faketime >/dev/null; then
    say "faketime is installed"
else
    need faketime faketime
    say "faketime installed"
fi

# hearts serve --allocator jemalloc preloads Debian's jemalloc (tests/server/test_allocator.py runs a server on it)
if compgen -G "/usr/lib/*/libjemalloc.so.2" >/dev/null; then
    say "jemalloc is installed"
else
    need libjemalloc-so-2 libjemalloc2  # (no such command: the package is installed)
    say "jemalloc installed"
fi
