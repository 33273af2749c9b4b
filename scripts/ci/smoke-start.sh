#!/usr/bin/env bash
# Starts the production build as a newcomer would (no DATABASE_URL: embedded PostgreSQL in a
# fresh folder), checks that it serves, then stops it with SIGTERM and expects a clean exit.
set -euo pipefail
data_root=$(mktemp -d)
# Walkable for the postgres user that runs the cluster as root, so that the cluster lives here
# (not in a folder of its own under /var/tmp) and goes with this folder at the end.
chmod o+x "$data_root"
data_dir=$data_root/postgres
port=${SMOKE_PORT:-3999}
log=$(mktemp)
EMBEDDED_PG_DATA_DIR=$data_dir EMBEDDED_PG_PORT=$((port + 1)) PORT=$port \
  node $(node -p "require('./package.json').config.nodeFlags") dist/apps/api/src/main.js >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT

ready=""
for _ in $(seq 1 60); do
  if curl -fsS "http://127.0.0.1:$port/health/ready" >/dev/null 2>&1; then ready=yes; break; fi
  sleep 0.5
done
if [ -z "$ready" ]; then echo "service did not become ready:"; cat "$log"; exit 1; fi
curl -fsS "http://127.0.0.1:$port/docs/openapi.json" >/dev/null

kill -TERM $pid
status=0
wait $pid || status=$?
trap - EXIT
if [ "$status" -ne 0 ]; then echo "service exited with $status:"; cat "$log"; exit 1; fi
if pgrep -f "postgres -D $data_dir" >/dev/null; then echo "embedded PostgreSQL still running"; exit 1; fi
rm -rf "$data_root" "$log"
echo "smoke start: ready, served the OpenAPI document, stopped cleanly"
