#!/bin/sh
# The layering of src/ (docs/architecture.md): no dependency runs up a
# floor, no circle of folders, no file over 600 lines.  Reads the includes
# and the symbols of this build's object files.
srcdir=${srcdir:-.}
exec "${PYTHON3:-python3}" "$srcdir/scripts/layers.py" --src "$srcdir/src" --build .
