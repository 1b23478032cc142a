/*
 * bcryptprimitives.dll stand-in, FOR TESTING UNDER WINE ONLY.
 *
 * Rust's standard library (1.78+) on Windows imports ProcessPrng from
 * bcryptprimitives.dll. Windows 10 and 11 ship that DLL; Wine 8 does not, so a
 * Rust-built pbrain-pentad.exe fails to load there. This file provides the one
 * export, filling the buffer with RtlGenRandom (advapi32!SystemFunction036).
 * Never ship it with the engine: real Windows has the real DLL.
 *
 * Build: tools/wine/build-shim.sh OUTDIR  (x86_64-w64-mingw32-gcc -shared)
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length); /* RtlGenRandom */

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
    while (len > 0) {
        ULONG chunk = len > 0x40000000 ? 0x40000000 : (ULONG)len;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        len -= chunk;
    }
    return TRUE;
}
