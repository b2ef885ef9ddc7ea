#!/usr/bin/env bash
# The match runner's tests (tests/arena_*.rs) play GNU Go at /usr/games/gnugo and run the
# fake engines in tests/fake_engines/ with bash. Idempotent: does nothing when both exist.
set -euo pipefail
if [[ -x /usr/games/gnugo ]] && command -v bash >/dev/null; then
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y gnugo bash
