#!/usr/bin/env bash
# Installs the GTP clients that tests/gtp_clients.rs plays hane against: GNU Go (Debian),
# gomill 0.8.3 under pyenv's Python 2.7.18, and Sabaki's @sabaki/gtp and @sabaki/sgf from
# the npm registry into tests/clients/node_modules. Idempotent: skips what is present.
set -euo pipefail
cd "$(dirname "$0")/../.."

apt_updated=0
apt_install() {
    if [ "$apt_updated" = 0 ]; then
        apt-get update
        apt_updated=1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y "$@"
}

if [ ! -x /usr/games/gnugo ]; then
    apt_install gnugo
fi

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    apt_install nodejs npm
fi

if [ ! -d tests/clients/node_modules/@sabaki/gtp ] || [ ! -d tests/clients/node_modules/@sabaki/sgf ]; then
    (cd tests/clients && npm ci --no-audit --no-fund)
fi

if command -v pyenv >/dev/null && [ ! -d "$(pyenv root)/versions/2.7.18" ]; then
    pyenv install 2.7.18
fi
if ! PYENV_VERSION=2.7.18 python -c 'import gomill' 2>/dev/null; then
    PYENV_VERSION=2.7.18 python -m pip install gomill==0.8.3
fi
