#!/bin/sh
# The image's entry point: `qa <role or verb> [options]`, `start` when none is given. For a shell, override the entry
# point (`docker run --entrypoint sh -it <image>`). QA_APP_DIR is where the built service is: the image's /app (tests
# point it at a checkout). `exec`, so that qa is the process tini signals.
set -eu
[ "$#" -gt 0 ] || set -- start
exec node "${QA_APP_DIR:-/app}/dist/src/cli/main.js" "$@"
