#!/usr/bin/env bash
# Builds the web sandbox: web/minkowski.wasm beside web/index.html.
# Serve the folder with any static HTTP server, e.g.
#   python3 -m http.server --directory web 8000
# and open http://localhost:8000/ (browsers do not load wasm from file://).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  rustup target add wasm32-unknown-unknown
fi
cargo build --profile web --target wasm32-unknown-unknown --bin minkowski
cp "${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/web/minkowski.wasm" web/minkowski.wasm
echo "web/minkowski.wasm: $(wc -c < web/minkowski.wasm) bytes"
