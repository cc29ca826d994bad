#!/usr/bin/env bash
# Sets up everything on a fresh machine that has Node 20, npm and Python 3: pnpm, the workspace's
# packages, the Python test tools (radon oracle, pytest) in their own venv, and the build.
# Idempotent: a second run only checks.
set -euo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1

PNPM_VERSION=10.34.9
if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version)" != "$PNPM_VERSION" ]; then
  npm install --global "pnpm@$PNPM_VERSION"
fi
pnpm install --frozen-lockfile

PYTHON=${PYTHON:-python3}
TOOLS=.repocod/tools/py
wanted=$(sha256sum tools/requirements-test.txt | cut -c1-16)
if [ "$(cat "$TOOLS/.requirements" 2>/dev/null)" != "$wanted" ]; then
  rm -rf "$TOOLS"
  if ! "$PYTHON" -m venv "$TOOLS" 2>/dev/null; then
    # Debian's python3 ships venv separately.
    apt-get update -qq && apt-get install -y -qq python3-venv
    "$PYTHON" -m venv "$TOOLS"
  fi
  "$TOOLS/bin/pip" install --quiet --disable-pip-version-check -r tools/requirements-test.txt
  echo "$wanted" > "$TOOLS/.requirements"
fi

# The runner's tests run in a network namespace of their own whose loopback `ip` brings up (iproute2).
if ! command -v ip >/dev/null 2>&1; then
  apt-get update -qq && apt-get install -y -qq iproute2
fi

# The distributed executor's tests start a redis-server of their own (CI starts one for the whole run).
if ! command -v redis-server >/dev/null 2>&1; then
  apt-get update -qq && apt-get install -y -qq redis-server
fi

pnpm build
