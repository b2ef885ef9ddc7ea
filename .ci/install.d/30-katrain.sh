#!/usr/bin/env bash
# Installs KaTrain 1.20.0 (PyPI, with Kivy's prebuilt wheel) into a virtual environment at
# /opt/hane-katrain, for tests/kata_json.rs, which runs KaTrain's own engine code headless
# against `hane analysis` (tests/clients/katrain_check.py). Idempotent: skips when present.
set -euo pipefail

venv=/opt/hane-katrain
if [ -x "$venv/bin/python" ] && KIVY_NO_ARGS=1 KIVY_NO_CONSOLELOG=1 \
    "$venv/bin/python" -c 'import katrain.core.engine' 2>/dev/null; then
    exit 0
fi
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check katrain==1.20.0
