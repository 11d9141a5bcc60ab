#!/usr/bin/env bash
# End-to-end GRPO with TRL on CPU: a tiny model built locally (nothing downloaded) calls live
# PROVE tools, gets PROVE's reward, and its weights change. Prints the figures as JSON.
#   pip install -e '.[train,test]' jmespath   # jmespath: TRL's tool parsing on transformers < 5.13
#   bash scripts/train-smoke.sh [--steps 4] [--warm-steps 150]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export TRL_EXPERIMENTAL_SILENCE=1
exec "${PYTHON:-python}" -m tests.integrations.trl_smoke "$@"
