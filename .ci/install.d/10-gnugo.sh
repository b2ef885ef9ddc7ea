#!/usr/bin/env bash
# Installs GNU Go for tests/gnugo_differential.rs (Debian puts it at /usr/games/gnugo).
set -euo pipefail
if [ -x /usr/games/gnugo ]; then
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y gnugo
