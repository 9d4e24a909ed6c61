#!/usr/bin/env bash
# CI: PostgreSQL and Redis from Debian's packages, started for the multi-server tests
# (tests/test_web_cluster.py), and nginx with openssl for the proxy test
# (tests/test_web_proxy.py, which starts its own nginx). Sourced by .ci/run: exports KOLODA_TEST_PG and
# KOLODA_TEST_REDIS. Installs only what is missing; says how long it took.
set -euo pipefail
started=$SECONDS
if ! command -v pg_ctlcluster >/dev/null || ! command -v redis-server >/dev/null \
        || ! [ -x /usr/sbin/nginx ] || ! command -v openssl >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq postgresql redis-server nginx openssl >/dev/null
    # the tests start their own nginx (tests/test_web_proxy.py); the packaged one stays off
    service nginx stop >/dev/null 2>&1 || true
fi
echo "ci: postgresql, redis-server and nginx installed in $((SECONDS - started)) s"
# PostgreSQL: the packaged cluster (the newest version installed), one superuser for the
# tests (they make a database per test)
version=$(ls /usr/lib/postgresql | sort -V | tail -1)
if ! pg_lsclusters -h | awk '{print $1, $2}' | grep -q "^$version main$"; then
    pg_createcluster "$version" main >/dev/null
fi
pg_ctlcluster "$version" main start >/dev/null 2>&1 || true
for _ in $(seq 50); do
    su postgres -c "pg_isready -q" && break
    sleep 0.2
done
su postgres -c "psql -qtAc \"SELECT 1 FROM pg_roles WHERE rolname='koloda_ci'\"" | grep -q 1 \
    || su postgres -c "psql -qc \"CREATE ROLE koloda_ci LOGIN SUPERUSER PASSWORD 'koloda_ci'\""
su postgres -c "psql -qtAc \"SELECT 1 FROM pg_database WHERE datname='koloda_ci'\"" | grep -q 1 \
    || su postgres -c "createdb -O koloda_ci koloda_ci"
port=$(pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" {print $3}')
# Redis: on its own port, nothing kept on disk
redis_port=6390
redis-cli -p "$redis_port" ping >/dev/null 2>&1 \
    || redis-server --port "$redis_port" --daemonize yes --save '' --appendonly no >/dev/null
for _ in $(seq 50); do
    redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break
    sleep 0.1
done
export KOLODA_TEST_PG="postgresql://koloda_ci:koloda_ci@127.0.0.1:$port/koloda_ci"
export KOLODA_TEST_REDIS="redis://127.0.0.1:$redis_port/0"
echo "ci: PostgreSQL $version on port $port, Redis on port $redis_port, up after $((SECONDS - started)) s"
