#!/usr/bin/env python3
"""Fails if a built binary calls GStreamer API newer than a given version.

JetPack 6 has GStreamer 1.20; CI builds against a newer one, whose headers
would let a 1.22-only function through. Debian's symbols files list, for
every exported function of libgstreamer1.0-0 (core, base, check, controller)
and libgstreamer-plugins-base1.0-0 (video, app, ...), the version that
introduced it: each symbol a binary imports is looked up there.

  check-gst-api.py 1.20 build/plugin/libgsttexel.so build/tests/... 

Symbols of other libraries (GLib, libc, GStreamer's CUDA library, which has
no symbols file and is optional) are not judged. Macros and inline functions
leave no import and are not seen.
"""
import glob
import re
import subprocess
import sys


def version_tuple(text):
    return tuple(int(x) for x in re.findall(r"\d+", text)[:3])


def introduced_versions():
    versions = {}
    for path in glob.glob("/var/lib/dpkg/info/libgstreamer*.symbols"):
        for line in open(path):
            m = re.match(r"^ (\S+)@Base (\S+)", line)
            if m:
                versions[m.group(1)] = version_tuple(m.group(2))
    return versions


def imported_symbols(binary):
    out = subprocess.run(["nm", "-D", "--undefined-only", binary],
                         check=True, capture_output=True, text=True).stdout
    return {line.split()[-1].split("@")[0] for line in out.splitlines() if line.strip()}


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    limit = version_tuple(sys.argv[1])
    versions = introduced_versions()
    if not versions:
        print("check-gst-api: no GStreamer symbols files in /var/lib/dpkg/info: not checked")
        return 0
    newer = []
    checked = 0
    for binary in sys.argv[2:]:
        for sym in sorted(imported_symbols(binary)):
            v = versions.get(sym)
            if v is None:
                continue
            checked += 1
            # Any x.y.z of the limit's minor series is the limit.
            if v[:2] > limit[:2]:
                newer.append(f"{binary}: {sym} (GStreamer {'.'.join(map(str, v))})")
    for line in newer:
        print("newer than GStreamer " + sys.argv[1] + ": " + line)
    print(f"check-gst-api: {checked} GStreamer imports in {len(sys.argv) - 2} binaries, "
          f"{len(newer)} newer than {sys.argv[1]}")
    return 1 if newer else 0


if __name__ == "__main__":
    sys.exit(main())
