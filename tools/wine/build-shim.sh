#!/bin/sh
# Build the Wine-only bcryptprimitives.dll stand-in (see bcryptprimitives.c) into OUTDIR.
# Usage: tools/wine/build-shim.sh OUTDIR
# Put the DLL beside pbrain-pentad.exe when running it under Wine 8; Windows 10/11 have the
# real DLL, so it is never shipped.
set -eu
out=${1:?usage: build-shim.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
# ProcessPrng is __stdcall; on x86-64 there is no name decoration, so no .def file is needed.
x86_64-w64-mingw32-gcc -O2 -shared -s -o "$out/bcryptprimitives.dll" \
    "$here/bcryptprimitives.c" -ladvapi32
echo "$out/bcryptprimitives.dll"
