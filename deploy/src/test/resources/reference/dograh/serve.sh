#!/usr/bin/env bash
# The reference system's campaign list, served for CampaignListBenchmark (-Dbench.reference=dograh): Dograh's own
# GET /api/v1/campaign/ handler (api/routes/campaign.py at the commit reference-behavior.md describes, unmodified),
# its auth dependency, database client and SQLAlchemy models, mounted alone by campaign_only_app.py, on uvicorn,
# against a database "dograh" on the PostgreSQL server the benchmark runs (the same server as ours), migrated with
# the reference's own alembic migrations and seeded with seed.sql (the same campaigns as ours, in its schema).
#
# Python: Debian 13 (trixie) in a chroot made with debootstrap (this machine's Debian 12 has Python 3.11, pydantic 1
# and SQLAlchemy 1.4; the reference needs Python 3.13, pydantic 2 and SQLAlchemy 2); the four pure-Python packages
# Debian lacks, and the reference itself, from their git repositories (REFERENCE_GIT: a folder of bare clones named
# owner+name/repo; otherwise cloned from GitHub into $WORK/git). Needs root (debootstrap, chroot).
#
#   PGPORT=5433 APIPORT=18000 WORKERS=2 CAMPAIGNS=100 serve.sh start   # prints "pid <uvicorn's pid>" when it answers
#   serve.sh stop
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
WORK=${WORK:-/tmp/voiceagent-reference}
T=$WORK/trixie
D=$T/opt/dograh
APIPORT=${APIPORT:-18000}
WORKERS=${WORKERS:-2}
CAMPAIGNS=${CAMPAIGNS:-100}
REFERENCE_GIT=${REFERENCE_GIT:-/work/.mirror}
DOGRAH_COMMIT=058c540c4d92c55f529d04fabceb17da4901a0cb
PSQL_BIN=${PSQL_BIN:-/usr/lib/postgresql/15/bin/psql}

if [ "${1:-}" = stop ]; then
  if [ -f "$WORK/uvicorn.pid" ]; then
    pid=$(cat "$WORK/uvicorn.pid")
    pkill -TERM -P "$pid" 2>/dev/null || true
    kill "$pid" 2>/dev/null || true
    rm -f "$WORK/uvicorn.pid"
  fi
  exit 0
fi
[ "${1:-}" = start ] || { echo "usage: serve.sh start|stop" >&2; exit 2; }
: "${PGPORT:?PGPORT: the port of the PostgreSQL server to use (trust authentication on 127.0.0.1)}"
[ "$(id -u)" = 0 ] || { echo "serve.sh needs root (debootstrap and chroot)" >&2; exit 1; }
mkdir -p "$WORK"

# 1. Debian trixie's Python in a chroot (once; about 20 s and 570 MB)
if [ ! -f "$T/.voiceagent-ready" ]; then
  command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap >/dev/null
  [ -x "$T/usr/bin/apt-get" ] || debootstrap --variant=minbase trixie "$T" http://deb.debian.org/debian \
    > "$WORK/debootstrap.log" 2>&1
  cp /etc/resolv.conf "$T/etc/resolv.conf" 2>/dev/null || true
  chroot "$T" apt-get update -qq
  chroot "$T" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    python3 python3-fastapi python3-pydantic python3-starlette python3-sqlalchemy python3-asyncpg \
    python3-uvicorn python3-httptools python3-uvloop python3-loguru python3-httpx python3-aiohttp \
    python3-bcrypt python3-jwt python3-dateutil python3-alembic python3-email-validator \
    python3-python-multipart python3-redis python3-numpy python3-requests python3-backoff \
    python3-distro > "$WORK/apt-install.log"
  touch "$T/.voiceagent-ready"
fi

# 2. The sources: the reference at its commit, and the pure-Python packages Debian lacks
git_dir() { # owner/name -> a bare clone
  local local_dir="$REFERENCE_GIT/${1/\//+}/repo"
  if [ -d "$local_dir" ]; then echo "$local_dir"; return; fi
  local clone="$WORK/git/${1/\//+}"
  [ -d "$clone" ] || git clone -q --bare "https://github.com/$1" "$clone" >&2
  echo "$clone"
}
if [ ! -f "$D/.sources-$DOGRAH_COMMIT" ]; then
  rm -rf "$D" && mkdir -p "$D/src" "$D/vendor/pgvector" "$D/vendor/posthog" "$D/vendor/pipecat" "$D/vendor/ape" "$D/bench"
  G=$(git_dir dograh-hq/dograh)
  # api/ blob by blob: a snapshot may lack a large audio asset the route never reads
  git --git-dir="$G" ls-tree -r "$DOGRAH_COMMIT" api | while read -r _ _ sha path; do
    git --git-dir="$G" cat-file -e "$sha" 2>/dev/null || continue
    mkdir -p "$D/src/$(dirname "$path")"
    git --git-dir="$G" cat-file blob "$sha" > "$D/src/$path"
  done
  git --git-dir="$(git_dir pgvector/pgvector-python)" archive v0.4.2 pgvector | tar x -C "$D/vendor/pgvector"
  git --git-dir="$(git_dir PostHog/posthog-python)" archive 7.19.1 posthog | tar x -C "$D/vendor/posthog"
  # only pipecat/__init__.py and pipecat/utils are on this route's import path (api.logging_config, api.errors)
  P=$(git_dir dograh-hq/pipecat)
  PIPECAT=$(git --git-dir="$P" cat-file -e ca89ca3c^{commit} 2>/dev/null && echo ca89ca3c || echo HEAD)
  # (a snapshot may lack a blob elsewhere in the tree: git archive says so, and the files asked for come whole)
  git --git-dir="$P" archive "$PIPECAT" src/pipecat/__init__.py src/pipecat/utils 2>>"$WORK/sources.log" \
    | tar x -C "$D/vendor/pipecat" --strip-components=1
  mkdir -p "$D/vendor/pipecat/pipecat_ai-0.0.0.dist-info" # pipecat/__init__ reads its own version
  printf 'Metadata-Version: 2.1\nName: pipecat-ai\nVersion: 0.0.0+dograh-fork\n' \
    > "$D/vendor/pipecat/pipecat_ai-0.0.0.dist-info/METADATA"
  git --git-dir="$(git_dir Pogchamp-company/alembic-postgresql-enum)" archive v1.8.0 alembic_postgresql_enum \
    | tar x -C "$D/vendor/ape"
  touch "$D/.sources-$DOGRAH_COMMIT"
fi
cp "$HERE/campaign_only_app.py" "$HERE/migrate.py" "$D/bench/"
cat > "$D/env.sh" <<ENV
export PYTHONPATH=/opt/dograh/src:/opt/dograh/vendor/pgvector:/opt/dograh/vendor/posthog:/opt/dograh/vendor/pipecat:/opt/dograh/vendor/ape
export DATABASE_URL=postgresql+asyncpg://postgres@127.0.0.1:$PGPORT/dograh
export REDIS_URL=redis://127.0.0.1:6399/0   # required by api.constants; never connected on this route
export DEPLOYMENT_MODE=oss AUTH_PROVIDER=local ENABLE_TELEMETRY=false
export ENVIRONMENT=local LOG_LEVEL=INFO OSS_JWT_SECRET=bench-secret
ENV

# 3. Its database on the benchmark's server: the reference's migrations, then the campaigns
PSQL="$PSQL_BIN -X -q -h 127.0.0.1 -p $PGPORT -U postgres"
$PSQL -c 'DROP DATABASE IF EXISTS dograh' -c 'CREATE DATABASE dograh'
chroot "$T" bash -c '. /opt/dograh/env.sh && python3 /opt/dograh/bench/migrate.py upgrade head' \
  > "$WORK/migrate.log" 2>&1 || { tail -20 "$WORK/migrate.log" >&2; exit 1; }
$PSQL -d dograh -v ON_ERROR_STOP=1 -v campaigns="$CAMPAIGNS" -f "$HERE/seed.sql" > /dev/null

# 4. uvicorn, as the reference runs it (its own logging set-up; uvloop and httptools, which uvicorn takes when
#    installed); one process per worker
chroot "$T" bash -c ". /opt/dograh/env.sh && cd /opt/dograh/bench && exec python3 -m uvicorn campaign_only_app:app \
   --host 127.0.0.1 --port $APIPORT --workers $WORKERS" > "$WORK/uvicorn.log" 2>&1 &
echo $! > "$WORK/uvicorn.pid"
for _ in $(seq 1 120); do
  code=$(curl -s -o /dev/null -w '%{http_code}' -H 'X-API-Key: dgr_bench_key_0001' \
    "http://127.0.0.1:$APIPORT/api/v1/campaign/" || true)
  if [ "$code" = 200 ]; then echo "pid $(cat "$WORK/uvicorn.pid")"; exit 0; fi
  sleep 0.5
done
echo "the reference did not answer 200 on :$APIPORT (last: $code); its log:" >&2
tail -30 "$WORK/uvicorn.log" >&2
exit 1
