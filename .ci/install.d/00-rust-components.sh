#!/usr/bin/env bash
# Installs rustfmt and clippy for the checks in .ci/run (`cargo fmt --check`, `cargo clippy`).
# Idempotent: asks rustup (which needs to reach static.rust-lang.org) only when one is missing.
set -euo pipefail
if cargo fmt --version >/dev/null 2>&1 && cargo clippy --version >/dev/null 2>&1; then
    exit 0
fi
rustup component add rustfmt clippy
