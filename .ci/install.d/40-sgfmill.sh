#!/usr/bin/env bash
# Installs sgfmill (PyPI) for tests/review.rs, which reads the SGF files `hane review`
# writes with it, as a second, independent SGF reader. Idempotent: skips when present.
set -euo pipefail

if python3 -c 'import sgfmill' 2>/dev/null; then
    exit 0
fi
python3 -m pip install --quiet --disable-pip-version-check sgfmill
