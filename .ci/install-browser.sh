#!/usr/bin/env bash
# What the browser test (tests/browser) needs on a fresh Debian machine, as root:
# Debian's chromium (/usr/bin/chromium; Playwright's own browser download is not possible
# here) and Playwright for Python to drive it. Idempotent: quick when already installed.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
if ! [ -x /usr/bin/chromium ]; then
    apt-get update -qq
    apt-get install -y -qq chromium > /dev/null
fi
python3 -m pip install -q playwright
/usr/bin/chromium --version || true
python3 -c "import playwright.sync_api; print('playwright', 'ok')"
