#!/bin/sh
# Print the path of a Python >= 3.12 that actually runs (and can make a venv); exit 1 if none.
# Order: $PYTHON if set, then python3.13 python3.12 python3 on PATH, then pyenv's installed
# 3.12.x / 3.13.x interpreters by full path (pyenv shims fail unless that version is selected).
ok() { "$1" -c 'import sys, venv, ensurepip; assert sys.version_info >= (3, 12)' >/dev/null 2>&1; }
root=$(pyenv root 2>/dev/null) || root=${PYENV_ROOT:-$HOME/.pyenv}
for c in ${PYTHON:-} python3.13 python3.12 python3 \
         "$root"/versions/3.12*/bin/python3 "$root"/versions/3.13*/bin/python3; do
    p=$(command -v "$c" 2>/dev/null) || continue
    if ok "$p"; then
        "$p" -c 'import sys; print(sys.executable)'
        exit 0
    fi
done
echo "error: no working Python >= 3.12 found (tried \$PYTHON, python3.13, python3.12, python3," \
     "$root/versions/3.1[23]*); jaxlib 0.12 needs 3.12+. Set PYTHON=/path/to/python3.12." >&2
exit 1
